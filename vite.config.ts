import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';

// The API runs beside Vite in development (scripts/dev.mjs); proxying keeps the browser on one
// origin, as in production where the server also serves the built client.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3000}`;

export default defineConfig(({ command }) => {
  // A build is always the production build, whatever NODE_ENV the shell has (vitest sets `test`,
  // which would bundle React's development build and fail the size budget of `npm run build`).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config;
});

const config = {
  root: 'client',
  plugins: [react()],
  build: {
    outDir: '../dist/client',
    // outDir lies outside `root`, and Vite refuses to empty such a folder unless told to.
    emptyOutDir: true,
    // Every browser the portal supports knows modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The large libraries every page starts with, each in a chunk of its own (issue 17). The
        // browser then compiles and runs them as several shorter tasks instead of two long ones,
        // which a phone's CPU turns into hundreds of ms of blocked main thread (Lighthouse's
        // Total Blocking Time). Only libraries the start-up uses whole: a group takes every module
        // of its library that any page uses, and a library used partly by lazy pages (Mantine)
        // would drag their parts into the initial download.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
            { name: 'data', test: /[\\/]node_modules[\\/](@tanstack|@trpc)[\\/]/ },
          ],
        },
      },
    },
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
} satisfies UserConfig;
