import { Button, Group, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Notifications, notifications } from '@mantine/notifications';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { TOAST_AUTO_CLOSE_MS } from '../shared/constants';
import { serverMessageOf } from './api/errors';
import { PHONE_QUERY } from './breakpoints';
import classes from './notify.module.css';

/**
 * The toasts. Position and auto-close (top-right, 5 s) are set once here, on
 * the one <Toasts /> of App.tsx, so callers only say what happened.
 */

/**
 * Where toasts appear: top-right, below the page's heading row (notify.module.css).
 * On a phone a toast is as wide as the screen, and at the top it would cover the top bar (with its
 * bell) and the page's way back: there they rise from the bottom edge instead.
 */
export function Toasts() {
  // Read at once, not after a first render in the wrong place.
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  return (
    <Notifications
      position={phone ? 'bottom-center' : 'top-right'}
      autoClose={TOAST_AUTO_CLOSE_MS}
      className={classes.toasts}
    />
  );
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}

/** Done, but worth a second look (a file attached twice, say). */
export function notifyWarning(message: string): void {
  notifications.show({ color: 'yellow', message });
}

/**
 * `title` is the product's wording (shared/messages.ts); `message`, when given, says why (the
 * server's own words).
 */
export function notifyError(title: string, message?: string): void {
  notifications.show(message ? { color: 'red', title, message } : { color: 'red', message: title });
}

/**
 * A failed load as a toast with a Retry button (a list that failed silently would look empty;
 * ours says so). It stays until the load succeeds, Retry is pressed, or the page goes.
 * `id` keeps one toast per source, so repeated failures replace it instead of stacking.
 */
export function useLoadFailureToast(id: string, title: string, error: unknown, retry: () => unknown): void {
  // The latest retry without making it an effect dependency: a new closure each render must
  // not close and reopen the toast.
  const retryRef = useRef(retry);
  useLayoutEffect(() => {
    retryRef.current = retry;
  });

  useEffect(() => {
    if (!error) return;
    notifications.show({
      id,
      color: 'red',
      title,
      autoClose: false,
      message: (
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text size="sm">{serverMessageOf(error)}</Text>
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={() => {
              notifications.hide(id);
              void retryRef.current();
            }}
          >
            Retry
          </Button>
        </Group>
      ),
    });
    return () => {
      notifications.hide(id);
    };
  }, [id, title, error]);
}
