import { useSyncExternalStore } from 'react';

/**
 * The installed app's state as the shell shows it: is there a signal, and is a new version
 * waiting. A new version never takes over by itself; the user reloads when it suits them, so a
 * half-filled form is never lost to an update.
 */

type Listener = () => void;
const listeners = new Set<Listener>();
let updateReady = false;
let applyUpdate: (() => Promise<void>) | undefined;

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Starts the service worker once the page has loaded and the browser is idle (production only). */
export function startAppUpdates(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () =>
    void import('./service-worker')
      .then(({ registerServiceWorker }) => {
        applyUpdate = registerServiceWorker(() => {
          updateReady = true;
          for (const listener of listeners) listener();
        });
      })
      // Without a worker the portal works as a plain web page: nothing to tell the user.
      .catch(() => undefined);
  const whenIdle = () =>
    'requestIdleCallback' in window ? window.requestIdleCallback(register) : setTimeout(register, 1);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

/** Whether a new version is waiting for the user's word. */
export function useUpdateReady(): boolean {
  return useSyncExternalStore(subscribe, () => updateReady);
}

/** The user's word: the waiting version takes over and the page reloads. */
export function reloadToUpdate(): void {
  void applyUpdate?.();
}

function subscribeToConnection(listener: Listener): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Whether the browser has a network connection, as it reports it. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeToConnection, () => navigator.onLine);
}
