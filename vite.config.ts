import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API runs beside Vite in development (scripts/dev.mjs); proxying keeps the browser on one
// origin, as in production where the server also serves the built client.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3000}`;

export default defineConfig({
  root: 'client',
  plugins: [react()],
  build: {
    outDir: '../dist/client',
    // outDir lies outside `root`, and Vite refuses to empty such a folder unless told to.
    emptyOutDir: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget },
      '/files': { target: apiTarget },
      // tRPC subscriptions are WebSocket upgrades on the same path as the HTTP batch calls.
      '/trpc': { target: apiTarget, ws: true },
    },
  },
});
