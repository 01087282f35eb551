import { Badge, Button, Card, FileButton, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconCheck, IconEye, IconMessagePlus, IconUpload, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { FILE_PICKER_ACCEPT } from '../../../shared/file-types';
import { toasts, validation } from '../../../shared/messages';
import type { Comment, FormStatus, Transaction, TransactionForm } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { transactionUploadPath, uploadFile } from '../../api/upload';
import { formatDateTime } from '../../dates';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { UploadProgress } from '../UploadProgress';

export type Decision = 'accepted' | 'rejected';

const STATUS_COLOR: Record<FormStatus, string> = { pending: 'yellow', accepted: 'green', rejected: 'red' };
const DECISION_LABEL: Record<Decision, string> = { accepted: 'Accepted', rejected: 'Rejected' };

type FormsChecklistProps = {
  transaction: Transaction;
  /** Posts a non-empty comment; resolves true when posted, which clears the box. */
  onComment: (form: TransactionForm, text: string) => Promise<boolean>;
  /**
   * Given on the admin page: each form gets Accept and Reject, sending the comment box's text
   * (possibly empty) along. It also turns an empty comment into the spec's warning, where the
   * agent's page just ignores it (spec section 5).
   */
  onReview?: (form: TransactionForm, status: Decision, text: string) => Promise<boolean>;
  /** Called once a new file is stored for a form, so the page reloads what changed. */
  onFileStored: () => unknown;
};

/** The checklist of a transaction (spec section 2): one card per required document. */
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
          {transaction.forms.map((form) => (
            <FormCard
              key={form._id}
              transactionId={transaction._id}
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
  form: TransactionForm;
};

type Busy = 'comment' | Decision | null;

function FormCard({ transactionId, form, onComment, onReview, onFileStored }: FormCardProps) {
  const [text, setText] = useState('');
  const [commentError, setCommentError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const upload = useFileUpload(transactionId, form, onFileStored);
  // An agent's checklist runs to a dozen documents: each comment box opens on demand instead of
  // every card carrying an empty one. The reviewer's stays open, as it also takes the reason for
  // Accept or Reject. A box with text in it never closes by itself.
  const reviewer = onReview !== undefined;
  const [composing, setComposing] = useState(reviewer);
  const boxOpen = composing || text !== '';
  const boxRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (composing && !reviewer) boxRef.current?.focus();
  }, [composing, reviewer]);

  const run = async (kind: Exclude<Busy, null>, action: () => Promise<boolean>) => {
    setBusy(kind);
    try {
      if (await action()) {
        setText('');
        setComposing(reviewer);
      }
    } finally {
      setBusy(null);
    }
  };

  const cancelComment = () => {
    setText('');
    setComposing(false);
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

  const decide = (status: Decision) => {
    if (!onReview) return;
    setCommentError(null);
    void run(status, () => onReview(form, status, text.trim()));
  };

  const locked = busy !== null;

  return (
    // Scoped by test id, not by an accessible name: document names such as "Preliminary Title
    // Report" would otherwise also answer to the admin's 'Title Report' checkbox label.
    <Card withBorder component="section" data-testid={`form-${form.label}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} size="h4">
            {form.label}
          </Title>
          {/* tt="none": the badge reads exactly the status word, as it is stored. */}
          <Badge color={STATUS_COLOR[form.status]} variant="light" tt="none" data-testid="form-status">
            {form.status}
          </Badge>
        </Group>

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
          <FileButton onChange={upload.start} accept={FILE_PICKER_ACCEPT} resetRef={upload.resetRef}>
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="light"
                disabled={upload.progress !== null}
                leftSection={<IconUpload size={16} aria-hidden="true" />}
              >
                Upload
              </Button>
            )}
          </FileButton>
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
          {onReview && (
            <>
              <Button
                size="xs"
                color="green"
                variant="light"
                disabled={locked}
                leftSection={<IconCheck size={16} aria-hidden="true" />}
                onClick={() => decide('accepted')}
              >
                Accept
              </Button>
              <Button
                size="xs"
                color="red"
                variant="light"
                disabled={locked}
                leftSection={<IconX size={16} aria-hidden="true" />}
                onClick={() => decide('rejected')}
              >
                Reject
              </Button>
            </>
          )}
        </Group>

        {upload.progress !== null && <UploadProgress percent={upload.progress} />}

        {form.comments.length > 0 && (
          <Stack gap="xs" component="ul" p={0} m={0}>
            {form.comments.map((comment) => (
              <CommentItem key={comment._id} comment={comment} />
            ))}
          </Stack>
        )}

        {boxOpen && (
          <>
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
              {!reviewer && (
                <Button size="xs" variant="subtle" color="gray" disabled={locked} onClick={cancelComment}>
                  Cancel
                </Button>
              )}
              <Button size="xs" variant="default" disabled={locked} onClick={postComment}>
                {busy === 'comment' ? 'Posting...' : 'Post comment'}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
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
        <Text size="xs" fw={600} c={STATUS_COLOR[comment.status]}>
          {DECISION_LABEL[comment.status]}
        </Text>
      )}
      {comment.text && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {comment.text}
        </Text>
      )}
    </Paper>
  );
}

/**
 * Upload, then record: the file goes to the upload route (with progress), and its key is then
 * stored on the form, which puts the form back to pending (DESIGN.md section 5).
 */
function useFileUpload(transactionId: string, form: TransactionForm, onFileStored: () => unknown) {
  const trpc = useTRPC();
  const setFormFile = useMutation(trpc.transactions.setFormFile.mutationOptions());
  const [progress, setProgress] = useState<number | null>(null);
  // Cleared after each attempt, so picking the same file again still fires a change.
  const resetRef = useRef<() => void>(null);

  const start = async (file: File | null) => {
    if (!file) return;
    setProgress(0);
    try {
      let key: string;
      try {
        key = (await uploadFile(transactionUploadPath(transactionId), file, setProgress)).key;
      } catch (error) {
        notifyError(toasts.uploadFailed, serverMessageOf(error));
        return;
      }
      try {
        await setFormFile.mutateAsync({ id: transactionId, formId: form._id, url: key });
      } catch (error) {
        notifyError(toasts.fileUrlUpdateFailed, serverMessageOf(error));
        return;
      }
      notifySuccess(toasts.fileUploaded);
      await onFileStored();
    } finally {
      setProgress(null);
      resetRef.current?.();
    }
  };

  return { progress, start, resetRef };
}
