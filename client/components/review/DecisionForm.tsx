import { Button, Group, Kbd, Stack, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Fragment, type KeyboardEvent } from 'react';
import { TOUCH_ONLY_QUERY } from '../../breakpoints';
import type { Decision } from './decision';
import { ReasonChips } from './ReasonChips';

type DecisionFormProps = {
  decision: Decision;
  /** The form's id: the buttons may sit outside it (the phone's bar) and still submit it. */
  formId: string;
  /** False when the buttons are drawn elsewhere (DecisionButtons in the phone's bar). */
  withButtons: boolean;
  /** Escape while rejecting: leave rejecting, keep the dialog and what was written. */
  onCancelRejecting: () => void;
};

/**
 * The decision on the item as a form: the comment, then the rejection reasons, then the buttons.
 * Submitting it rejects (denies). Its keys are its own, never the dialog's shortcuts: Enter
 * confirms while rejecting (Shift+Enter a new line), Ctrl/Cmd+Enter always, Escape cancels.
 */
export function DecisionForm({ decision, formId, withButtons, onCancelRejecting }: DecisionFormProps) {
  const { isWaiver, rejecting, busy } = decision;

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter') {
      const modified = event.ctrlKey || event.metaKey;
      // On a button Enter presses it (Accept accepts, Reject submits).
      const pressesButton = event.target instanceof HTMLButtonElement;
      if (modified || (rejecting && !event.shiftKey && !event.altKey && !pressesButton)) {
        event.preventDefault();
        event.stopPropagation();
        void decision.decide(false);
      }
    } else if (event.key === 'Escape' && rejecting) {
      event.preventDefault();
      event.stopPropagation();
      onCancelRejecting();
    }
  };

  return (
    <form
      id={formId}
      aria-label="Decision"
      noValidate
      onKeyDown={onKeyDown}
      onSubmit={(event) => {
        event.preventDefault();
        void decision.decide(false);
      }}
    >
      <Stack gap="xs">
        <Textarea
          ref={decision.commentBox}
          label="Comment"
          minRows={2}
          value={decision.text}
          onChange={(event) => decision.setText(event.currentTarget.value)}
          disabled={busy}
          error={decision.error}
        />
        {!isWaiver && (
          <ReasonChips value={decision.reasons} onChange={decision.chooseReasons} disabled={busy} />
        )}
        {withButtons && <DecisionButtons decision={decision} formId={formId} />}
      </Stack>
    </form>
  );
}

/** Accept (approve) and Reject (deny, the form's submit), wherever they are drawn. */
export function DecisionButtons({ decision, formId }: { decision: Decision; formId: string }) {
  const { isWaiver, busy } = decision;
  return (
    <Group gap="xs">
      <Button type="button" color="green" loading={busy} onClick={() => void decision.decide(true)}>
        {isWaiver ? 'Approve' : 'Accept'}
      </Button>
      <Button type="submit" form={formId} color="red" variant="light" disabled={busy}>
        {isWaiver ? 'Deny' : 'Reject'}
      </Button>
    </Group>
  );
}

/**
 * The keys that work now: the shortcuts, or while rejecting how to confirm or cancel. Left out
 * on a device whose only pointer is a finger, which has no keyboard to use them with.
 */
export function ShortcutLegend({ waiver, rejecting }: { waiver: boolean; rejecting: boolean }) {
  const touchOnly = useMediaQuery(TOUCH_ONLY_QUERY, false, { getInitialValueInEffect: false });
  if (touchOnly) return null;
  const no = waiver ? 'deny' : 'reject';
  const keys: [string, string][] = rejecting
    ? [
        ['Enter', no],
        ['Shift+Enter', 'new line'],
        ['Esc', 'cancel'],
      ]
    : [
        ['A', waiver ? 'approve' : 'accept'],
        ['R', no],
        ['J', 'next'],
        ['K', 'previous'],
        ['Esc', 'close'],
      ];
  return (
    <Text size="xs" c="dimmed" data-testid="shortcut-legend" aria-live="polite">
      {keys.map(([key, action], i) => (
        <Fragment key={key}>
          {i > 0 && ' · '}
          <Kbd size="xs">{key}</Kbd> {action}
        </Fragment>
      ))}
    </Text>
  );
}
