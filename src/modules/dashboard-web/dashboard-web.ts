import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';

/** Where the Merchant Dashboard is served; its built files are `dist/web` (`npm run build`). */
export const DASHBOARD_WEB_PATH = '/dashboard';

/**
 * The dashboard's pages: scripts, styles, images and API calls from the service itself only,
 * nothing inline, never framed.
 */
export const DASHBOARD_WEB_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** The icon every page of the service names, and the one a browser asks for when a page names none. */
const ICON_PATHS = [`${DASHBOARD_WEB_PATH}/favicon.svg`, '/favicon.ico'];

/** The dashboard's pages and files, and the service's icon: public, with the dashboard's headers. */
export function isDashboardWebRoute(url: string): boolean {
  return url === DASHBOARD_WEB_PATH || url.startsWith(`${DASHBOARD_WEB_PATH}/`) || ICON_PATHS.includes(url);
}

/** The repository's root, from the built (`dist/src/…`) or the source (`src/…`) location of this file. */
function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * Serves the dashboard's single-page application: its hashed assets under `/dashboard/assets/`
 * (cached for a year: a new build has new names), and its page for every other path under
 * `/dashboard` (never cached, so a new build is picked up at once), where the browser's router
 * takes over. Without a build, the page says how to make one.
 */
export async function installDashboardWeb(app: NestFastifyApplication): Promise<void> {
  const webDir = join(projectRoot(), 'dist', 'web');
  const indexFile = join(webDir, 'index.html');
  const page = existsSync(indexFile) ? readFileSync(indexFile) : undefined;
  const fastify = app.getHttpAdapter().getInstance();
  if (page) {
    await app.register(fastifyStatic, {
      root: join(webDir, 'assets'),
      prefix: `${DASHBOARD_WEB_PATH}/assets/`,
      decorateReply: false,
      index: false,
      immutable: true,
      maxAge: '365d',
    });
  }
  const iconFile = join(webDir, 'favicon.svg');
  if (existsSync(iconFile)) {
    const icon = readFileSync(iconFile);
    const sendIcon = (_request: unknown, reply: FastifyReply) => reply.header('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(icon);
    for (const path of ICON_PATHS) fastify.get(path, sendIcon);
  }
  const sendPage = (_request: unknown, reply: FastifyReply) => {
    if (!page) return reply.code(503).type('text/plain; charset=utf-8').send('The dashboard is not built: run `npm run build`.');
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(page);
  };
  fastify.get(DASHBOARD_WEB_PATH, sendPage);
  fastify.get(`${DASHBOARD_WEB_PATH}/*`, sendPage);
}
