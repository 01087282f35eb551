import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// The API runs beside Vite in development (scripts/dev.mjs); proxying keeps the browser on one
// origin, as in production where the server also serves the built client.
const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3000}`;

export default defineConfig(({ command }) => {
  // A build is always the production build, whatever NODE_ENV the shell has (vitest sets `test`,
  // which would bundle React's development build and fail the size budget of `npm run build`).
  if (command === 'build') process.env.NODE_ENV = 'production';
  return config;
});

/**
 * sign.html beside index.html: the same page with its start-up scripts at a low fetch priority,
 * which the server sends to a signer's link (/sign/...; server/plugins/client.ts). A signer opens
 * the link once, on a phone as often as not, and should see at once that it has come: the start-up
 * screen of index.html (styled inline) needs the page and its stylesheet only, but at the High
 * priority Chrome gives module scripts the five start-up scripts (about 180 KiB) share the slow
 * network with the 30 KiB stylesheet and the first paint waited for them (2.2 s on Lighthouse's
 * mobile profile). At a low priority the stylesheet comes first and the scripts right after it.
 * Not for every page: the start-up's long tasks then fall after the first paint, where Lighthouse
 * counts them as blocking time; tried on every page, the sign-in page scored 78 against its goal
 * of 90 (blocking time 0.86 s; one run, on a busy machine).
 */
function signingPageHtml(): Plugin {
  return {
    name: 'signing-page-html',
    apply: 'build',
    async writeBundle({ dir }) {
      if (!dir) return;
      const html = await readFile(path.join(dir, 'index.html'), 'utf8');
      const lowPriority = html.replace(
        /<(script type="module"|link rel="modulepreload")/g,
        '<$1 fetchpriority="low"',
      );
      if (lowPriority === html) throw new Error('index.html has no start-up script to lower the priority of');
      await writeFile(path.join(dir, 'sign.html'), lowPriority);
    },
  };
}

/**
 * The installable app: a web manifest and a service worker (Workbox, generated at build time)
 * that keeps the shell and every built file, so the portal opens with no signal. A new build's
 * worker waits until the user says to reload (client/app-updates.ts): never mid-form.
 * Navigations to the server's own pages (the API, files, a signer's link, health checks) always
 * go to the network; every other one is the shell.
 */
function installableApp() {
  return VitePWA({
    registerType: 'prompt',
    // Registered by client/app-updates.ts after the page has loaded, not by an injected script.
    injectRegister: false,
    includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
    manifest: {
      name: 'Brokerage Portal',
      short_name: 'Portal',
      description: 'Transaction management for real-estate brokerages',
      id: '/',
      start_url: '/home',
      scope: '/',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#4c6ef5',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
      // sign.html is the signer's page, sent by the server to links only.
      globIgnores: ['sign.html'],
      navigateFallback: '/index.html',
      navigateFallbackDenylist: [/^\/(?:api|trpc|files|sign|metrics|healthz|readyz)(?:\/|$)/],
      cleanupOutdatedCaches: true,
      // The PDF viewer's worker is the largest file; the default 2 MiB would leave it out.
      maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
    },
  });
}

const config = {
  root: 'client',
  plugins: [react(), signingPageHtml(), installableApp()],
  build: {
    outDir: '../dist/client',
    // outDir lies outside `root`, and Vite refuses to empty such a folder unless told to.
    emptyOutDir: true,
    // Every browser the portal supports knows modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The large libraries every page starts with, each in a chunk of its own. The
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
            // Every other module the start-up needs, in the entry chunk. Without this, Rolldown
            // splits the Mantine parts the shell shares with lazy pages into chunks of their own
            // (Stack-*.js, Box-*.js, ...), which the first visit loads all the same, each gzipped
            // apart; and which parts split moved with every new lazy page (the broker
            // dashboard alone cost 1.1 KiB that way). One chunk is smaller, and stays put.
            { name: 'shell', tags: ['$initial'] },
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
