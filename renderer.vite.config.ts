// Vite config of the console (renderer): relative asset URLs so one build works under /console/ and in the desktop window.
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

/** Gateway the dev server proxies API calls to (the desktop host starts it on this port in dev mode). */
export const DEV_GATEWAY = process.env['GATEHOUSE_DEV_GATEWAY'] ?? 'http://127.0.0.1:8790';

/**
 * The dev server injects inline scripts (React refresh) and talks HMR over a WebSocket: loosen the
 * page's CSP for `vite dev` only. Builds keep the strict policy of index.html.
 */
function devCsp(): Plugin {
  return {
    name: 'gatehouse-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*"),
  };
}

export const rendererConfig: UserConfig = {
  root: path.resolve(import.meta.dirname, 'renderer'),
  base: './',
  plugins: [react(), devCsp()],
  build: {
    // Minified in both builds (electron-vite's default for the renderer is not): half the bytes for the window and the
    // browser to load and parse before the console's first paint.
    minify: true,
    outDir: path.resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    rollupOptions: { input: path.resolve(import.meta.dirname, 'renderer/index.html') },
  },
  server: {
    // Same-origin API calls in dev: the dev server forwards them to the gateway.
    proxy: {
      '/admin/ws': { target: DEV_GATEWAY.replace(/^http/, 'ws'), ws: true },
      '/admin/api': DEV_GATEWAY,
      '/v1': DEV_GATEWAY,
      '/v1beta': DEV_GATEWAY,
    },
  },
};

export default defineConfig(rendererConfig);
