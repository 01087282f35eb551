// Core styles first: the other packages' styles build on its variables and resets.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startAppUpdates } from './app-updates';
import { preloadPageAt } from './routes';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The page of the address the app opens on arrives before the first render, so it shows at once
// rather than after a loader that React keeps on screen for at least 300 ms (client/lazy-page.ts).
// Should that fetch fail, the app renders anyway and the page retries through its loader.
void preloadPageAt(window.location.pathname)
  .catch(() => undefined)
  .then(() => {
    const root = createRoot(container);
    startTransition(() =>
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    );
    startAppUpdates();
  });
