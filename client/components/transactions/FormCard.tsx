import { Card, Stack, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import type { TransactionForm } from '../../../shared/schemas/transactions';
import { SignatureStatus } from '../esign/SignatureStatus';
import { DocumentPreview } from '../review/DocumentPreview';
import { VersionHistory } from '../review/VersionHistory';
import { checklistAnchor, SCROLL_MARGIN } from './anchors';
import { CommentBox } from './CommentBox';
import { FormCardActions } from './FormCardActions';
import { FormCardStatus } from './FormCardStatus';
import { FormComments } from './FormComments';
import { ItemUploads } from './ItemUploads';
import { ReviewButtons } from './ReviewButtons';
import { useFileDrop } from './useFileDrop';
import { type FormCallbacks, useFormReview } from './useFormReview';
import { useItemUploads } from './useItemUploads';
import { usePanel } from './usePanel';
import { WaiverModal } from './WaiverModal';

// The field placer and pdf.js arrive when the agent first sends a document for signature.
const SendForSignatureModal = lazy(() => import('../esign/SendForSignatureModal'));

type FormCardProps = FormCallbacks & {
  transactionId: string;
  /** A closed file takes no upload, waiver or decision; comments still work. */
  closed: boolean;
  form: TransactionForm;
};

/**
 * One document of a transaction's checklist: where it stands, its actions, the uploads under way,
 * its preview and history on demand, its comments, and a comment box. Files dropped on the card
 * are uploaded to it, in the order dropped.
 */
export function FormCard({ transactionId, closed, form, ...callbacks }: FormCardProps) {
  const review = useFormReview(transactionId, form, callbacks);
  const uploads = useItemUploads(transactionId, form, callbacks.onFileStored);
  const { dragging, dropHandlers } = useFileDrop(uploads.uploadFiles, !closed);
  const preview = usePanel();
  const history = usePanel();
  const [waiverOpen, setWaiverOpen] = useState(false);
  const [sendingForSignature, setSendingForSignature] = useState(false);
  const hasFile = form.version > 0;
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
        <FormCardStatus form={form} warningsShownByUpload={warningsShownByUpload} />
        {hasFile && <SignatureStatus transactionId={transactionId} formId={form._id} />}
        <FormCardActions
          transactionId={transactionId}
          form={form}
          closed={closed}
          onFiles={uploads.uploadFiles}
          onPhotoStored={uploads.attachStored}
          preview={preview}
          history={history}
          canCompose={!review.boxOpen}
          onCompose={review.compose}
          onRequestWaiver={() => setWaiverOpen(true)}
          onSendForSignature={() => setSendingForSignature(true)}
        />
        {callbacks.onReview !== undefined && <ReviewButtons form={form} closed={closed} review={review} />}

        <ItemUploads uploads={uploads.uploads} onRetry={uploads.retryAttach} onDismiss={uploads.dismiss} />

        {preview.open && form.url && form.fileName && (
          // In the page, with pages and zoom: no download, no new tab, so a reviewer stays on the item.
          <div id={preview.id}>
            <DocumentPreview url={form.url} fileName={form.fileName} label={form.label} />
          </div>
        )}

        {history.open && hasFile && (
          <div id={history.id}>
            <VersionHistory transactionId={transactionId} formId={form._id} version={form.version} />
          </div>
        )}

        <FormComments comments={form.comments} />

        {review.boxOpen && <CommentBox review={review} reviewer={callbacks.onReview !== undefined} />}
      </Stack>
      {sendingForSignature && form.url && (
        <Suspense fallback={null}>
          <SendForSignatureModal
            transactionId={transactionId}
            form={{ ...form, url: form.url }}
            onClose={() => setSendingForSignature(false)}
          />
        </Suspense>
      )}
      <WaiverModal
        opened={waiverOpen}
        transactionId={transactionId}
        form={form}
        onClose={() => setWaiverOpen(false)}
        onRequested={callbacks.onFileStored}
      />
    </Card>
  );
}
