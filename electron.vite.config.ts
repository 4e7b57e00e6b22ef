// electron-vite build of the three Electron bundles: main process, preload bridge and the React renderer (shared with `npm run build:renderer`).
import { defineConfig } from 'electron-vite';
import { rendererConfig } from './renderer.vite.config.ts';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The media, WAL checkpoint and journal workers are entries of their own: the gateway starts them as `<name>.js` next to the main bundle.
      rollupOptions: {
        input: {
          index: 'electron/main/index.ts',
          'media-worker': 'electron/gateway/workers/media-worker.ts',
          'wal-checkpoint-worker': 'electron/gateway/storage/wal-checkpoint-worker.ts',
          'journal-worker': 'electron/gateway/storage/journal-worker.ts',
        },
        external: ['better-sqlite3', 'keytar', 'fastify'],
      },
    },
  },
  // Sandboxed windows only run CommonJS preload scripts.
  preload: {
    build: {
      outDir: 'out/preload',
      rolldownOptions: { input: 'electron/preload/index.ts', output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: rendererConfig,
});
