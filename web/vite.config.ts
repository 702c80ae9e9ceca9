// The dashboard's build: web/ → dist/web (served by src/http/dashboard.ts at /). `npm run dev:web`
// serves it with hot reload on :5173 and forwards the API to the service on :3000 (`npm run dev`).
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { precompress } from './build/precompress'
import { serviceWorker } from './pwa/service-worker-plugin'

const apiOrigin = process.env.DASHBOARD_API_ORIGIN ?? 'http://127.0.0.1:3000'

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  // serviceWorker(): /sw.js for the technician app (/my), with this build's file list. precompress():
  // a .br and a .gz beside every text file, sent to browsers that accept them.
  plugins: [react(), serviceWorker(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // Hashed file names under /assets/: the server caches them for a year (immutable).
    assetsDir: 'assets',
    // No source maps: they would publish the whole source to anyone. `npm run dev:web` has its own.
    sourcemap: false,
    // Nothing inlined as a data: URL, so every asset stays a file the CSP's 'self' allows.
    assetsInlineLimit: 0,
    // One bundle for a dashboard used on office connections; Vite's 500 kB warning is not useful here.
    chunkSizeWarningLimit: 2000,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: { '/v1': { target: apiOrigin, changeOrigin: false } },
  },
})
