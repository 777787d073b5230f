import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The site is static: `vite build` emits dist/, `vite preview` serves it for Playwright.
export default defineConfig({
  plugins: [react()],
  base: './',
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
  // zstd's encoder finds its .wasm beside its own module (new URL(..., import.meta.url)); the dev
  // server's dependency pre-bundling would move the module away from it.
  optimizeDeps: { exclude: ['@bokuweb/zstd-wasm'] },
});
