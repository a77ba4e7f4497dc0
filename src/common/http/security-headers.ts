import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * The API docs page (Swagger UI): its own scripts and styles (inline ones too), data: images, no
 * framing, nothing from elsewhere. The agreement page sends its own, stricter set.
 */
export const DOCS_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Security headers as fixed sets per kind of answer, set once per response: every answer
 * `nosniff`, JSON answers (per-merchant data) `no-store`, the pages under each path of `pages`
 * (the docs, the dashboard) their CSP. The headers are constants, so a per-request middleware
 * (helmet's hooks cost about 60 µs per request, a fifth of a GET) buys nothing here.
 */
export function installSecurityHeaders(fastify: FastifyInstance, pages: Record<string, Record<string, string>>): void {
  fastify.addHook('onRoute', (route) => {
    const path = Object.keys(pages).find((prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`));
    if (path === undefined) return;
    const setPageHeaders = (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      void reply.headers(pages[path]);
      done();
    };
    route.onRequest = [...(route.onRequest ? [route.onRequest].flat() : []), setPageHeaders];
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('X-Content-Type-Options', 'nosniff');
    if (!reply.hasHeader('cache-control') && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
      void reply.header('Cache-Control', 'no-store');
    }
    // A body answered before it was read (401, 404, 413, 503…): close rather than read the rest.
    if (!request.raw.complete) void reply.header('Connection', 'close');
    done(null, payload);
  });
}
