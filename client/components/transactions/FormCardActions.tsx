import { Button, Group } from '@mantine/core';
import {
  IconEye,
  IconFileSearch,
  IconHistory,
  IconMessagePlus,
  IconShieldCheck,
  IconSignature,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { TransactionForm, UploadAnswer } from '../../../shared/schemas/transactions';
import { PhotoCapture } from './PhotoCapture';
import { UploadButton } from './UploadButton';
import type { Panel } from './usePanel';

type FormCardActionsProps = {
  transactionId: string;
  form: TransactionForm;
  /** A closed file takes no upload or waiver. */
  closed: boolean;
  onFiles: (files: File[]) => void;
  onPhotoStored: (answer: UploadAnswer) => void;
  preview: Panel;
  history: Panel;
  /** Whether 'Add a comment' shows: not while the comment box is open. */
  canCompose: boolean;
  onCompose: () => void;
  onRequestWaiver: () => void;
  onSendForSignature: () => void;
};

const PDF_NAME = /\.pdf$/i;

/**
 * A checklist item's row of actions: see, add or photograph its file, look back, comment, send
 * it for signature, waive.
 */
export function FormCardActions(props: FormCardActionsProps) {
  const { transactionId, form, closed, preview, history } = props;
  const hasFile = form.version > 0;
  // What the server can sign: the item's current file, when it is a PDF, on an open file.
  const canSendForSignature = hasFile && !closed && PDF_NAME.test(form.fileName ?? '');
  const waiverStatus = form.waiver?.status ?? null;
  const canRequestWaiver =
    form.required &&
    form.status !== 'accepted' &&
    waiverStatus !== 'requested' &&
    waiverStatus !== 'approved';
  return (
    <Group gap="xs">
      <ViewButton url={form.url} />
      <UploadButton disabled={closed} onFiles={props.onFiles} />
      <PhotoCapture
        transactionId={transactionId}
        label={form.label}
        disabled={closed}
        onUploaded={props.onPhotoStored}
      />
      {hasFile && form.url !== null && (
        <PanelToggle panel={preview} icon={<IconFileSearch size={16} aria-hidden="true" />}>
          Preview
        </PanelToggle>
      )}
      {hasFile && (
        <PanelToggle panel={history} icon={<IconHistory size={16} aria-hidden="true" />}>
          History
        </PanelToggle>
      )}
      {props.canCompose && (
        <Button
          size="xs"
          variant="default"
          leftSection={<IconMessagePlus size={16} aria-hidden="true" />}
          onClick={props.onCompose}
        >
          Add a comment
        </Button>
      )}
      {canSendForSignature && (
        <Button
          size="xs"
          variant="default"
          leftSection={<IconSignature size={16} aria-hidden="true" />}
          onClick={props.onSendForSignature}
        >
          Send for signature
        </Button>
      )}
      {canRequestWaiver && (
        <Button
          size="xs"
          variant="default"
          disabled={closed}
          leftSection={<IconShieldCheck size={16} aria-hidden="true" />}
          onClick={props.onRequestWaiver}
        >
          Request waiver
        </Button>
      )}
    </Group>
  );
}

/** The current file in a new tab; shown disabled while the item has none, so the row keeps its shape. */
function ViewButton({ url }: { url: TransactionForm['url'] }) {
  const icon = <IconEye size={16} aria-hidden="true" />;
  return url ? (
    <Button
      component="a"
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      size="xs"
      variant="default"
      leftSection={icon}
    >
      View
    </Button>
  ) : (
    <Button size="xs" variant="default" disabled leftSection={icon}>
      View
    </Button>
  );
}

function PanelToggle({ panel, icon, children }: { panel: Panel; icon: ReactNode; children: ReactNode }) {
  return (
    <Button
      size="xs"
      variant="default"
      aria-expanded={panel.open}
      // Only while the panel is there: a reference to nothing is an axe finding.
      aria-controls={panel.open ? panel.id : undefined}
      leftSection={icon}
      onClick={panel.toggle}
    >
      {children}
    </Button>
  );
}
