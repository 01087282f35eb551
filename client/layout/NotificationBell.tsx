import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useId } from 'react';

type NotificationBellProps = {
  /** Shows the red pulsing dot (after a newNotification event). */
  hasUnread: boolean;
  onOpen: () => void;
};

export function NotificationBell({ hasUnread, onOpen }: NotificationBellProps) {
  // The shell can hold two bells at once (sidebar and slide-over menu): ids must differ.
  const unreadNoteId = useId();
  return (
    <Indicator color="red" size={10} processing disabled={!hasUnread} offset={4}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label="Notifications"
        aria-describedby={hasUnread ? unreadNoteId : undefined}
        onClick={onOpen}
        data-unread={hasUnread || undefined}
      >
        <IconBell size={20} stroke={1.6} aria-hidden="true" />
      </ActionIcon>
      {hasUnread && (
        <span id={unreadNoteId} hidden>
          New notifications
        </span>
      )}
    </Indicator>
  );
}
