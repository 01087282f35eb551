import { type ComponentType, createElement, lazy, useState } from 'react';

/** A route's page whose code loads on demand, rendered by <LoadedPage page={...} />. */
export type LazyPage = {
  /** Fetches the page's code ahead of its first render; safe to call again. */
  preload(): Promise<void>;
  /** The page itself once its code has arrived. */
  readonly loaded: ComponentType | undefined;
  /** React.lazy over the same code, for a page that has not arrived yet. */
  readonly suspending: ComponentType;
};

/**
 * React.lazy plus `preload()`. A page whose module has already arrived renders at once instead of
 * suspending: React reveals a suspended boundary's content no sooner than 300 ms after it showed
 * the fallback, and on /home that wait was a third of the 1 s LCP goal
 * (docs/PERFORMANCE.md, goal f). main.tsx preloads the page of the address the app opens on.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  let loading: Promise<void> | undefined;
  const page: { -readonly [K in keyof LazyPage]: LazyPage[K] } = {
    loaded: undefined,
    preload() {
      loading ??= load().then(
        (module) => {
          page.loaded = pick(module);
        },
        (error: unknown) => {
          // Forgotten, so a later visit tries the network again rather than failing forever.
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    suspending: lazy(async () => {
      await page.preload();
      return { default: page.loaded as ComponentType };
    }),
  };
  return page;
}

/** Renders a lazy page: at once when its code is there, else through Suspense. */
export function LoadedPage({ page }: { page: LazyPage }) {
  // Kept while the page stays the same: turning from the lazy wrapper to the page itself would
  // remount it. Every signed-in route renders this at the same place, so `page` changes on navigation.
  const [shown, setShown] = useState(() => ({ page, component: page.loaded ?? page.suspending }));
  if (shown.page !== page) {
    const next = { page, component: page.loaded ?? page.suspending };
    setShown(next);
    return createElement(next.component);
  }
  return createElement(shown.component);
}

/** Whether a wouter pattern such as /home/transactions/:id matches a whole pathname. */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const segments = pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`, 'i').test(pathname);
}
