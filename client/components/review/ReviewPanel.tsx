import {
  Alert,
  Badge,
  Button,
  Center,
  Divider,
  Group,
  Kbd,
  List,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { complianceMessages } from '../../../shared/messages';
import type { ReviewQueueItem } from '../../../shared/schemas/compliance';
import type { UploadWarning } from '../../../shared/schemas/intake';
import { serverMessageOf } from '../../api/errors';
import { formatDateTime } from '../../dates';
import { PHONE_QUERY } from '../../layout/breakpoints';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { DocumentPreview } from './DocumentPreview';
import { ReasonChips, ReasonList } from './ReasonChips';
import { VersionHistory } from './VersionHistory';

export const reviewToasts = {
  accepted: 'Document accepted',
  rejected: 'Document rejected',
  approved: 'Waiver approved',
  denied: 'Waiver denied',
} as const;

type ReviewPanelProps = {
  opened: boolean;
  /** The item on screen; null while the next one loads. */
  item: ReviewQueueItem | null;
  /** 1-based place of the item in the whole queue, and the queue's length. */
  position: number;
  total: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onClose: () => void;
  /** A decision was stored: refresh the queue and move on. */
  onDecided: () => Promise<void> | void;
};

/** Keys typed into a text field are text, not shortcuts. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
    return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
}

const agentName = (item: ReviewQueueItem) =>
  `${item.transaction.user.firstName} ${item.transaction.user.lastName}`;
export const addressOf = (t: ReviewQueueItem['transaction']) =>
  `${t.streetAddress}, ${t.city}, ${t.state} ${t.zip}`;

const pagesText = (pages: number) => (pages === 1 ? '1 page' : `${pages} pages`);

/**
 * What the upload's pre-checks found in the file under review (DESIGN.md 12.5: unsigned
 * signature fields, blank pages, a duplicate), beside the document and before the decision.
 */
function PreCheckWarnings({ warnings }: { warnings: readonly UploadWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      title="Pre-checks"
      icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      data-testid="review-warnings"
    >
      <List size="sm" spacing={2}>
        {warnings.map((warning) => (
          <List.Item key={`${warning.code}: ${warning.message}`}>{warning.message}</List.Item>
        ))}
      </List>
    </Alert>
  );
}

/**
 * Review mode of the queue: one item at a time, the document itself beside its checklist facts,
 * a decision, then the next item. Keyboard: A accept (approve), R reject (deny: focuses the
 * reasons and comment, confirmed with the button or Ctrl+Enter), J next, K previous, Escape closes.
 */
export function ReviewPanel(props: ReviewPanelProps) {
  const phone = useMediaQuery(PHONE_QUERY);
  const { opened, item, onClose } = props;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      fullScreen={phone}
      size="90rem"
      title="Review"
      closeButtonProps={{ 'aria-label': 'Close review' }}
    >
      {item ? (
        <ReviewItem key={`${item.form._id}:${item.form.version}:${item.kind}`} {...props} item={item} />
      ) : (
        <Center py="xl">
          <Loader aria-label="Loading the next item" />
        </Center>
      )}
    </Modal>
  );
}

function ReviewItem({
  item,
  position,
  total,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  onDecided,
}: ReviewPanelProps & { item: ReviewQueueItem }) {
  const trpc = useTRPC();
  const review = useMutation(trpc.adminTransactions.review.mutationOptions());
  const decideWaiver = useMutation(trpc.adminTransactions.decideWaiver.mutationOptions());
  const [reasons, setReasons] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const decisionArea = useRef<HTMLDivElement>(null);
  const commentBox = useRef<HTMLTextAreaElement>(null);
  const { transaction, form, kind } = item;
  const isWaiver = kind === 'waiver';

  const decide = async (positive: boolean) => {
    if (busy) return;
    const comment = text.trim();
    if (!isWaiver && !positive && reasons.length === 0 && !comment) {
      setError(complianceMessages.rejectionNeedsReason);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      if (isWaiver) {
        await decideWaiver.mutateAsync({
          id: transaction._id,
          formId: form._id,
          approve: positive,
          ...(comment ? { text: comment } : {}),
        });
      } else {
        await review.mutateAsync({
          id: transaction._id,
          formId: form._id,
          status: positive ? 'accepted' : 'rejected',
          version: form.version,
          ...(comment ? { text: comment } : {}),
          ...(!positive && reasons.length ? { reasons } : {}),
        });
      }
    } catch (failure) {
      setBusy(false);
      setError(serverMessageOf(failure));
      notifyError(serverMessageOf(failure));
      return;
    }
    notifySuccess(
      isWaiver
        ? positive
          ? reviewToasts.approved
          : reviewToasts.denied
        : positive
          ? reviewToasts.accepted
          : reviewToasts.rejected,
    );
    await onDecided();
  };

  /** R: the reviewer picks reasons (or writes why), then confirms. */
  const startRejecting = () => {
    const firstChip = decisionArea.current?.querySelector<HTMLInputElement>('input[type="checkbox"]');
    (firstChip ?? commentBox.current)?.focus();
  };

  // The latest handlers, read by one window listener for the panel's life.
  const keys = useRef({ decide, startRejecting, onNext, onPrevious, hasNext, hasPrevious });
  keys.current = { decide, startRejecting, onNext, onPrevious, hasNext, hasPrevious };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const k = keys.current;
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        void k.decide(false);
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      switch (event.key.toLowerCase()) {
        case 'a':
          event.preventDefault();
          void k.decide(true);
          break;
        case 'r':
          event.preventDefault();
          k.startRejecting();
          break;
        case 'j':
          event.preventDefault();
          if (k.hasNext) k.onNext();
          break;
        case 'k':
          event.preventDefault();
          if (k.hasPrevious) k.onPrevious();
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed" aria-live="polite">
          Item {position} of {total}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" disabled={!hasPrevious || busy} onClick={onPrevious}>
            Previous
          </Button>
          <Button size="xs" variant="default" disabled={!hasNext || busy} onClick={onNext}>
            Next
          </Button>
        </Group>
      </Group>
      <Text size="xs" c="dimmed" data-testid="shortcut-legend">
        <Kbd size="xs">A</Kbd> {isWaiver ? 'approve' : 'accept'} · <Kbd size="xs">R</Kbd>{' '}
        {isWaiver ? 'deny' : 'reject'} · <Kbd size="xs">J</Kbd> next · <Kbd size="xs">K</Kbd> previous ·{' '}
        <Kbd size="xs">Esc</Kbd> close
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <div>
          {isWaiver || !form.url || !form.fileName ? (
            <Paper withBorder p="md" role="region" aria-label={`Document: ${form.label}`}>
              {isWaiver ? (
                <Stack gap={4}>
                  <Text fw={600}>Waiver requested</Text>
                  {form.waiver && (
                    <>
                      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {form.waiver.reason}
                      </Text>
                      <Text size="xs" c="dimmed">
                        Asked on {formatDateTime(form.waiver.requestedAt)}
                      </Text>
                    </>
                  )}
                </Stack>
              ) : (
                <Text size="sm">No file is attached.</Text>
              )}
            </Paper>
          ) : (
            <DocumentPreview url={form.url} fileName={form.fileName} label={form.label} />
          )}
        </div>
        <Stack gap="sm">
          <div>
            <Group gap="xs" wrap="wrap">
              <Title order={3} size="h4">
                {form.label}
              </Title>
              {isWaiver && (
                <Badge color="grape" variant="light" tt="none">
                  Waiver
                </Badge>
              )}
              <Badge color={form.required ? 'blue' : 'gray'} variant="light" tt="none">
                {form.required ? 'Required' : 'Optional'}
              </Badge>
            </Group>
            <Text size="sm">
              {addressOf(transaction)} · {transaction.type} · {agentName(item)}
            </Text>
            {form.version > 0 && (
              <Text size="sm" c="dimmed">
                Version {form.version}
                {form.fileName && ` · ${form.fileName}`}
                {form.pages !== null && ` · ${pagesText(form.pages)}`}
                {form.submittedAt && ` · submitted ${formatDateTime(form.submittedAt)}`}
              </Text>
            )}
          </div>

          {!isWaiver && <PreCheckWarnings warnings={form.warnings} />}

          <Stack gap="xs" ref={decisionArea}>
            {!isWaiver && <ReasonChips value={reasons} onChange={setReasons} disabled={busy} />}
            <Textarea
              ref={commentBox}
              label="Comment"
              minRows={2}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              disabled={busy}
              error={error}
            />
            <Group gap="xs">
              <Button color="green" loading={busy} onClick={() => void decide(true)}>
                {isWaiver ? 'Approve' : 'Accept'}
              </Button>
              <Button color="red" variant="light" disabled={busy} onClick={() => void decide(false)}>
                {isWaiver ? 'Deny' : 'Reject'}
              </Button>
            </Group>
          </Stack>

          {form.comments.length > 0 && (
            <>
              <Divider label="Comments" labelPosition="left" />
              <Stack gap="xs" component="ul" p={0} m={0} aria-label="Comments">
                {form.comments.map((entry) => (
                  <Stack key={entry._id} component="li" gap={2} style={{ listStyle: 'none' }}>
                    <Text size="xs" c="dimmed">
                      {entry.user.firstName} {entry.user.lastName} · {formatDateTime(entry.createdAt)}
                      {entry.status && ` · ${entry.status}`}
                    </Text>
                    <ReasonList reasons={entry.reasons} />
                    {entry.text && (
                      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {entry.text}
                      </Text>
                    )}
                  </Stack>
                ))}
              </Stack>
            </>
          )}

          {form.version > 0 && (
            <>
              <Divider label="Versions" labelPosition="left" />
              <VersionHistory transactionId={transaction._id} formId={form._id} version={form.version} />
            </>
          )}
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
