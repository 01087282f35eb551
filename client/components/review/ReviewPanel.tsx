import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Divider,
  Group,
  List,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import type { ReviewQueueItem } from '../../../shared/schemas/compliance';
import type { UploadWarning } from '../../../shared/schemas/intake';
import { PHONE_QUERY } from '../../breakpoints';
import { formatDateTime } from '../../dates';
import { FORM_STATUS_LABEL } from '../transactions/compliance';
import { DecisionButtons, DecisionForm, ShortcutLegend } from './DecisionForm';
import { DocumentPreview } from './DocumentPreview';
import { useDecision } from './decision';
import { ReasonList } from './ReasonChips';
import { useReviewShortcuts } from './review-keys';
import { VersionHistory } from './VersionHistory';

export { reviewToasts } from './decision';

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

const agentName = (item: ReviewQueueItem) =>
  `${item.transaction.user.firstName} ${item.transaction.user.lastName}`;
export const addressOf = (t: ReviewQueueItem['transaction']) =>
  `${t.streetAddress}, ${t.city}, ${t.state} ${t.zip}`;

const pagesText = (pages: number) => (pages === 1 ? '1 page' : `${pages} pages`);

/**
 * What the upload's pre-checks found in the file under review (unsigned
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
 * a decision, then the next item. Keyboard: A accept (approve), R reject (deny: what is typed
 * next is the comment, the reasons a Tab away, Enter confirms, Escape cancels), J next,
 * K previous, Escape closes. On a phone the dialog fills the screen and Accept and Reject stay in
 * a bar at its bottom edge, below a document taller than the screen.
 */
export function ReviewPanel(props: ReviewPanelProps) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const [rejecting, setRejecting] = useState(false);
  const { opened, item, onClose } = props;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      // While rejecting, Escape leaves rejecting (the item handles it) instead of closing.
      closeOnEscape={!rejecting}
      fullScreen={phone}
      size="90rem"
      title="Review"
      closeButtonProps={{ 'aria-label': 'Close review' }}
      // A field focused on a phone is scrolled clear of the decision bar.
      styles={phone ? { content: { scrollPaddingBlockEnd: '5rem' } } : undefined}
    >
      {item ? (
        <ReviewItem
          key={`${item.form._id}:${item.form.version}:${item.kind}`}
          {...props}
          item={item}
          phone={phone}
          onRejectingChange={setRejecting}
        />
      ) : (
        <Center py="xl">
          <Loader aria-label="Loading the next item" />
        </Center>
      )}
    </Modal>
  );
}

type ReviewItemProps = ReviewPanelProps & {
  item: ReviewQueueItem;
  phone: boolean;
  onRejectingChange: (rejecting: boolean) => void;
};

function ReviewItem({
  item,
  position,
  total,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  onDecided,
  phone,
  onRejectingChange,
}: ReviewItemProps) {
  const decision = useDecision({ item, onDecided });
  const { rejecting, busy } = decision;
  const root = useRef<HTMLDivElement>(null);
  const formId = useId();
  const { transaction, form, kind } = item;
  const isWaiver = kind === 'waiver';

  useEffect(() => onRejectingChange(rejecting), [rejecting, onRejectingChange]);
  useEffect(() => () => onRejectingChange(false), [onRejectingChange]);

  const dialog = () => root.current?.closest<HTMLElement>('[role="dialog"]') ?? null;
  /** Out of rejecting, focus leaves the form for the dialog, where the shortcuts work again. */
  const cancelRejecting = () => {
    decision.cancelRejecting();
    dialog()?.focus();
  };
  useReviewShortcuts({
    dialog,
    rejecting,
    accept: () => void decision.decide(true),
    reject: () => void decision.decide(false),
    startRejecting: decision.startRejecting,
    cancelRejecting,
    next: () => {
      if (hasNext) onNext();
    },
    previous: () => {
      if (hasPrevious) onPrevious();
    },
  });

  return (
    <Stack gap="md" ref={root}>
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
      <ShortcutLegend waiver={isWaiver} rejecting={rejecting} />
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

          <DecisionForm
            decision={decision}
            formId={formId}
            withButtons={!phone}
            onCancelRejecting={cancelRejecting}
          />

          {form.comments.length > 0 && (
            <>
              <Divider label="Comments" labelPosition="left" />
              <Stack gap="xs" component="ul" p={0} m={0} aria-label="Comments">
                {form.comments.map((entry) => (
                  <Stack key={entry._id} component="li" gap={2} style={{ listStyle: 'none' }}>
                    <Text size="xs" c="dimmed">
                      {entry.user.firstName} {entry.user.lastName} · {formatDateTime(entry.createdAt)}
                      {entry.status && ` · ${FORM_STATUS_LABEL[entry.status]}`}
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
      {phone && (
        // The last thing in the dialog, held at the screen's bottom edge while anything above it
        // is in view: in reach whatever the document's length, and in the flow, so it covers
        // nothing once the end is reached.
        <Box
          data-testid="decision-bar"
          py="xs"
          px="md"
          mx="calc(-1 * var(--mantine-spacing-md))"
          style={{
            position: 'sticky',
            bottom: 0,
            zIndex: 2,
            background: 'var(--mantine-color-body)',
            borderTop: '1px solid var(--mantine-color-default-border)',
          }}
        >
          <DecisionButtons decision={decision} formId={formId} />
        </Box>
      )}
    </Stack>
  );
}
