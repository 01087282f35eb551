import {
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  Modal,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import {
  IconCheck,
  IconEye,
  IconFileSearch,
  IconHistory,
  IconMessagePlus,
  IconShieldCheck,
  IconUpload,
  IconX,
} from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { FILE_PICKER_ACCEPT } from '../../../shared/file-types';
import { complianceMessages, toasts, validation } from '../../../shared/messages';
import type { Comment, Transaction, TransactionForm } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { formatDateTime } from '../../dates';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { DocumentPreview } from '../review/DocumentPreview';
import { ReasonChips, ReasonList } from '../review/ReasonChips';
import { VersionHistory } from '../review/VersionHistory';
import { checklistAnchor, SCROLL_MARGIN } from './anchors';
import { FORM_STATUS_COLOR, FORM_STATUS_LABEL, itemState } from './compliance';
import { CurrentFileWarnings, ItemUploads } from './ItemUploads';
import { PacketSplitter } from './PacketSplitter';
import { PhotoCapture } from './PhotoCapture';
import { useFileDrop } from './useFileDrop';
import { useItemUploads } from './useItemUploads';

export type Decision = 'accepted' | 'rejected';

const WAIVER_LABEL = { requested: 'Waiver requested', approved: 'Waived', denied: 'Waiver denied' } as const;

type FormsChecklistProps = {
  transaction: Transaction;
  /** Posts a non-empty comment; resolves true when posted, which clears the box. */
  onComment: (form: TransactionForm, text: string) => Promise<boolean>;
  /**
   * Given on the admin page: each item with a file gets Accept and Reject, sending the comment
   * box's text (possibly empty) and, with a rejection, its reasons along. It also turns an empty
   * comment into the spec's warning, where the agent's page just ignores it (spec section 5).
   */
  onReview?: (form: TransactionForm, status: Decision, text: string, reasons: string[]) => Promise<boolean>;
  /** Called once a file, a waiver or its decision is stored, so the page reloads what changed. */
  onFileStored: () => unknown;
};

/** The checklist of a transaction (spec section 2): one card per document, required or optional. */
export function FormsChecklist({ transaction, onComment, onReview, onFileStored }: FormsChecklistProps) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        Documents
      </Title>
      {transaction.forms.length === 0 ? (
        <Text c="dimmed" size="sm">
          This transaction has no documents to collect.
        </Text>
      ) : (
        <Stack gap="md">
          <PacketSplitter transaction={transaction} onFileStored={onFileStored} />
          {transaction.forms.map((form) => (
            <FormCard
              key={form._id}
              transactionId={transaction._id}
              closed={transaction.closedAt !== null}
              form={form}
              onComment={onComment}
              onReview={onReview}
              onFileStored={onFileStored}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

type FormCardProps = Omit<FormsChecklistProps, 'transaction'> & {
  transactionId: string;
  /** A closed file takes no upload, waiver or decision; comments still work. */
  closed: boolean;
  form: TransactionForm;
};

type Busy = 'comment' | Decision | 'waiver' | null;

function FormCard({ transactionId, closed, form, onComment, onReview, onFileStored }: FormCardProps) {
  const trpc = useTRPC();
  const [text, setText] = useState('');
  const [reasons, setReasons] = useState<string[]>([]);
  const [commentError, setCommentError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [previewOpen, setPreviewOpen] = useState(false);
  const [waiverOpen, setWaiverOpen] = useState(false);
  const uploads = useItemUploads(transactionId, form, onFileStored);
  // Cleared after each pick, so picking the same file again still fires a change.
  const resetUploadRef = useRef<() => void>(null);
  const { dragging, dropHandlers } = useFileDrop(uploads.uploadFiles, !closed);
  const decideWaiver = useMutation(trpc.adminTransactions.decideWaiver.mutationOptions());
  // A checklist runs to a dozen documents: each comment box opens on demand ('Add a comment', or
  // Reject on the admin page) instead of every card carrying an empty one. A box with text in it
  // never closes by itself.
  const reviewer = onReview !== undefined;
  const [composing, setComposing] = useState(false);
  // Reject opens the reasons and the box; a second Reject sends the rejection.
  const [rejecting, setRejecting] = useState(false);
  const boxOpen = composing || rejecting || text !== '';
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const historyId = useId();
  const previewId = useId();
  const noFileId = useId();
  useEffect(() => {
    if (composing || rejecting) boxRef.current?.focus();
  }, [composing, rejecting]);

  const hasFile = form.version > 0;
  const waiverStatus = form.waiver?.status ?? null;
  const canRequestWaiver =
    form.required &&
    form.status !== 'accepted' &&
    waiverStatus !== 'requested' &&
    waiverStatus !== 'approved';

  const clearBox = () => {
    setText('');
    setReasons([]);
    setComposing(false);
    setRejecting(false);
    setCommentError(null);
  };

  const run = async (kind: Exclude<Busy, null>, action: () => Promise<boolean>) => {
    setBusy(kind);
    try {
      if (await action()) clearBox();
    } finally {
      setBusy(null);
    }
  };

  const postComment = () => {
    const trimmed = text.trim();
    if (!trimmed) {
      // The reviewer is told; the agent's empty comment is ignored (spec section 5).
      if (onReview) setCommentError(validation.commentRequired);
      return;
    }
    void run('comment', () => onComment(form, trimmed));
  };

  const accept = () => {
    if (!onReview) return;
    setCommentError(null);
    void run('accepted', () => onReview(form, 'accepted', text.trim(), []));
  };

  const reject = () => {
    if (!onReview) return;
    const trimmed = text.trim();
    if (!rejecting && !trimmed) {
      setRejecting(true);
      return;
    }
    setRejecting(true);
    if (!trimmed && reasons.length === 0) {
      setCommentError(complianceMessages.rejectionNeedsReason);
      return;
    }
    setCommentError(null);
    void run('rejected', () => onReview(form, 'rejected', trimmed, reasons));
  };

  const decide = (approve: boolean) => {
    const note = text.trim();
    void run('waiver', async () => {
      try {
        await decideWaiver.mutateAsync({
          id: transactionId,
          formId: form._id,
          approve,
          ...(note ? { text: note } : {}),
        });
      } catch (error) {
        notifyError(toasts.updateFailed, serverMessageOf(error));
        return false;
      }
      notifySuccess(approve ? 'Waiver approved' : 'Waiver denied');
      await onFileStored();
      return true;
    });
  };

  const locked = busy !== null;
  // Right after an upload its own notice says what the checks found; the item's line would repeat it.
  const warningsShownByUpload = uploads.uploads.some(
    (upload) => upload.version === form.version && upload.warnings.length > 0,
  );

  return (
    // Scoped by test id, not by an accessible name: document names such as "Preliminary Title
    // Report" would otherwise also answer to the admin's 'Title Report' checkbox label.
    <Card
      withBorder
      component="section"
      data-testid={`form-${form.label}`}
      // The agent's 'Needs your attention' links here (AttentionStrip.tsx); the margin keeps the
      // card clear of a phone's top bar when the page scrolls to it.
      id={checklistAnchor(form._id)}
      style={{
        scrollMarginTop: SCROLL_MARGIN,
        outline: dragging ? '2px dashed var(--mantine-color-blue-6)' : undefined,
        outlineOffset: -2,
      }}
      {...dropHandlers}
    >
      <Stack gap="sm">
        {dragging && (
          <Text size="sm" c="blue" fw={600}>
            {`Drop to add the files to ${form.label}, in this order`}
          </Text>
        )}
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2}>
            <Title order={3} size="h4">
              {form.label}
            </Title>
            <Text size="sm" data-testid="form-state">
              {`${form.required ? 'Required' : 'Optional'} · ${itemState(form)}`}
            </Text>
          </Stack>
          <Badge color={FORM_STATUS_COLOR[form.status]} variant="light" tt="none" data-testid="form-status">
            {FORM_STATUS_LABEL[form.status]}
          </Badge>
        </Group>

        {hasFile && (
          <Text size="xs" c="dimmed" data-testid="form-file" style={{ overflowWrap: 'anywhere' }}>
            {[
              form.fileName ?? 'File',
              form.submittedAt ? formatDateTime(form.submittedAt) : null,
              `Version ${form.version}`,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        )}

        {hasFile && !warningsShownByUpload && (
          <CurrentFileWarnings version={form.version} warnings={form.warnings} />
        )}

        {form.waiver && (
          <Text size="sm" data-testid="form-waiver" style={{ overflowWrap: 'anywhere' }}>
            {`${WAIVER_LABEL[form.waiver.status]}: ${form.waiver.reason}`}
          </Text>
        )}

        <Group gap="xs">
          {form.url ? (
            <Button
              component="a"
              href={form.url}
              target="_blank"
              rel="noopener noreferrer"
              size="xs"
              variant="default"
              leftSection={<IconEye size={16} aria-hidden="true" />}
            >
              View
            </Button>
          ) : (
            <Button
              size="xs"
              variant="default"
              disabled
              leftSection={<IconEye size={16} aria-hidden="true" />}
            >
              View
            </Button>
          )}
          <FileButton
            multiple
            onChange={(files) => {
              resetUploadRef.current?.();
              uploads.uploadFiles(files);
            }}
            accept={FILE_PICKER_ACCEPT}
            resetRef={resetUploadRef}
            disabled={closed}
          >
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="light"
                disabled={closed}
                leftSection={<IconUpload size={16} aria-hidden="true" />}
              >
                Upload
              </Button>
            )}
          </FileButton>
          <PhotoCapture
            transactionId={transactionId}
            label={form.label}
            disabled={closed}
            onUploaded={uploads.attachStored}
          />
          {hasFile && (
            <Button
              size="xs"
              variant="default"
              aria-expanded={previewOpen}
              aria-controls={previewOpen ? previewId : undefined}
              leftSection={<IconFileSearch size={16} aria-hidden="true" />}
              onClick={() => setPreviewOpen((open) => !open)}
            >
              Preview
            </Button>
          )}
          {hasFile && (
            <Button
              size="xs"
              variant="default"
              aria-expanded={historyOpen}
              // Only while the list is there: a reference to nothing is an axe finding.
              aria-controls={historyOpen ? historyId : undefined}
              leftSection={<IconHistory size={16} aria-hidden="true" />}
              onClick={() => setHistoryOpen((open) => !open)}
            >
              History
            </Button>
          )}
          {!boxOpen && (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconMessagePlus size={16} aria-hidden="true" />}
              onClick={() => setComposing(true)}
            >
              Add a comment
            </Button>
          )}
          {canRequestWaiver && (
            <Button
              size="xs"
              variant="default"
              disabled={closed}
              leftSection={<IconShieldCheck size={16} aria-hidden="true" />}
              onClick={() => setWaiverOpen(true)}
            >
              Request waiver
            </Button>
          )}
        </Group>

        {reviewer && (
          <Group gap="xs">
            <Button
              size="xs"
              color="green"
              variant="light"
              disabled={locked || closed || !hasFile}
              aria-describedby={hasFile ? undefined : noFileId}
              leftSection={<IconCheck size={16} aria-hidden="true" />}
              onClick={accept}
            >
              Accept
            </Button>
            <Button
              size="xs"
              color="red"
              variant="light"
              disabled={locked || closed || !hasFile}
              aria-describedby={hasFile ? undefined : noFileId}
              leftSection={<IconX size={16} aria-hidden="true" />}
              onClick={reject}
            >
              Reject
            </Button>
            {!hasFile && (
              <Text id={noFileId} size="xs" c="dimmed">
                {complianceMessages.noFileToReview}
              </Text>
            )}
            {waiverStatus === 'requested' && (
              <>
                <Button
                  size="xs"
                  color="green"
                  variant="light"
                  disabled={locked || closed}
                  onClick={() => decide(true)}
                >
                  Approve waiver
                </Button>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  disabled={locked || closed}
                  onClick={() => decide(false)}
                >
                  Deny waiver
                </Button>
              </>
            )}
          </Group>
        )}

        <ItemUploads uploads={uploads.uploads} onRetry={uploads.retryAttach} onDismiss={uploads.dismiss} />

        {previewOpen && form.url && form.fileName && (
          // In the page, with pages and zoom: no download, no new tab (issue 22).
          <div id={previewId}>
            <DocumentPreview url={form.url} fileName={form.fileName} label={form.label} />
          </div>
        )}

        {historyOpen && hasFile && (
          <div id={historyId}>
            <VersionHistory transactionId={transactionId} formId={form._id} version={form.version} />
          </div>
        )}

        {form.comments.length > 0 && (
          <Stack gap="xs" component="ul" p={0} m={0}>
            {form.comments.map((comment) => (
              <CommentItem key={comment._id} comment={comment} />
            ))}
          </Stack>
        )}

        {boxOpen && (
          <>
            {rejecting && <ReasonChips value={reasons} onChange={setReasons} disabled={locked} />}
            <Textarea
              ref={boxRef}
              aria-label="Comment"
              placeholder={onReview ? 'Comment (optional with Accept or Reject)' : 'Write a comment'}
              rows={2}
              resize="vertical"
              value={text}
              error={commentError}
              onChange={(event) => {
                setText(event.currentTarget.value);
                setCommentError(null);
              }}
            />
            <Group justify="flex-end" gap="xs">
              <Button size="xs" variant="subtle" color="gray" disabled={locked} onClick={clearBox}>
                Cancel
              </Button>
              <Button size="xs" variant="default" disabled={locked} onClick={postComment}>
                {busy === 'comment' ? 'Posting...' : 'Post comment'}
              </Button>
            </Group>
          </>
        )}
      </Stack>
      <WaiverModal
        opened={waiverOpen}
        transactionId={transactionId}
        form={form}
        onClose={() => setWaiverOpen(false)}
        onRequested={onFileStored}
      />
    </Card>
  );
}

/** 'Request waiver': why this required document does not apply (DESIGN.md 12.1). */
function WaiverModal({
  opened,
  transactionId,
  form,
  onClose,
  onRequested,
}: {
  opened: boolean;
  transactionId: string;
  form: TransactionForm;
  onClose: () => void;
  onRequested: () => unknown;
}) {
  const trpc = useTRPC();
  const request = useMutation(trpc.transactions.requestWaiver.mutationOptions());
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };

  const submit = async () => {
    const trimmed = reason.trim();
    if (!trimmed) {
      setError(complianceMessages.waiverReasonRequired);
      return;
    }
    try {
      await request.mutateAsync({ id: transactionId, formId: form._id, reason: trimmed });
    } catch (failure) {
      notifyError(toasts.updateFailed, serverMessageOf(failure));
      return;
    }
    notifySuccess('Waiver requested');
    close();
    await onRequested();
  };

  return (
    <Modal opened={opened} onClose={close} title={`Request a waiver: ${form.label}`}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Textarea
            label="Reason"
            placeholder="Not applicable: built after 1978"
            rows={3}
            value={reason}
            error={error}
            data-autofocus
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setError(null);
            }}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={request.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={request.isPending}>
              Request waiver
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function CommentItem({ comment }: { comment: Comment }) {
  return (
    <Paper component="li" withBorder p="xs" radius="sm" style={{ listStyle: 'none' }}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {comment.user.firstName} {comment.user.lastName}{' '}
          <Text span size="xs" c="dimmed" fw={400}>
            ({comment.role})
          </Text>
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(comment.createdAt)}
        </Text>
      </Group>
      {comment.status && (
        <Text size="xs" fw={600} c={FORM_STATUS_COLOR[comment.status]}>
          {FORM_STATUS_LABEL[comment.status]}
        </Text>
      )}
      <ReasonList reasons={comment.reasons} />
      {comment.text && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {comment.text}
        </Text>
      )}
    </Paper>
  );
}
