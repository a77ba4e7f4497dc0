import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * `npm run build` runs this with `NODE_ENV=production`: a `NODE_ENV` already set (jest sets
 * `test`) would otherwise ship React's development build.
 *
 * The Merchant Dashboard, built into `dist/web` and served by the service at `/dashboard`: every
 * asset under `/dashboard/assets/` with a content hash in its name, nothing inline (the pages'
 * Content-Security-Policy allows scripts and styles from the service only).
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: resolve(import.meta.dirname, '..', 'dist', 'web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The module-preload polyfill is an inline script; every browser we support preloads natively.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: 'hidden',
    reportCompressedSize: false,
    rolldownOptions: {
      // React Server Components' "use client" markers mean nothing in a single-page bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
