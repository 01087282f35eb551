/// <reference types="vite-plugin-pwa/client" />
import { registerSW } from 'virtual:pwa-register';

/**
 * Registers the build's service worker (vite.config.ts, installableApp). Loaded on its own, after
 * the page, by client/app-updates.ts: the virtual module exists only in a build with the plugin.
 * Returns what applies a waiting update: the new worker takes over, then the page reloads.
 */
export function registerServiceWorker(onUpdateReady: () => void): () => Promise<void> {
  const update = registerSW({ immediate: true, onNeedRefresh: onUpdateReady });
  return () => update(true);
}
