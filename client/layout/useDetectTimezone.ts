import { useEffect } from 'react';
import { getUserId } from '../auth/session';
import { useTRPCClient } from '../trpc';

const SENT_KEY = 'timezone-sent';

/**
 * Tells the server the browser's zone once per browser session after sign-in:
 * it keeps it only while the account has none of its own, so reminders and the digest come at the
 * agent's 08:00 rather than New York's. A failed call is tried again on the next page load.
 */
export function useDetectTimezone(): void {
  const trpcClient = useTRPCClient();
  const userId = getUserId();
  useEffect(() => {
    if (!userId) return;
    let timezone: string;
    try {
      timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (!timezone || window.sessionStorage.getItem(SENT_KEY) === userId) return;
      // Marked before the call, so StrictMode's second effect run does not send it twice.
      window.sessionStorage.setItem(SENT_KEY, userId);
    } catch {
      return; // Storage refused (a privacy mode): the server's default stays.
    }
    trpcClient.notificationSettings.detectTimezone.mutate({ timezone }).catch(() => {
      try {
        window.sessionStorage.removeItem(SENT_KEY);
      } catch {}
    });
  }, [trpcClient, userId]);
}
