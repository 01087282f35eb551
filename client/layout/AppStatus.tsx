import { lazy, Suspense } from 'react';
import { useOnline, useUpdateReady } from '../app-updates';

const AppStatusBar = lazy(() => import('./AppStatusBar'));

/** What every screen says about the app itself: no signal, or a new version waiting. */
export function AppStatus() {
  const online = useOnline();
  const updateReady = useUpdateReady();
  if (online && !updateReady) return null;
  return (
    <Suspense fallback={null}>
      <AppStatusBar online={online} updateReady={updateReady} />
    </Suspense>
  );
}
