// electron-vite build of the three Electron bundles: main process, preload bridge and the React renderer.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: 'electron/main/index.ts', external: ['better-sqlite3', 'keytar', 'fastify'] },
    },
  },
  preload: {
    build: { outDir: 'out/preload', rollupOptions: { input: 'electron/preload/index.ts' } },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: { outDir: 'out/renderer', rollupOptions: { input: 'renderer/index.html' } },
  },
});
