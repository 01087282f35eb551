import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { intakeMessages, toasts } from '../../../shared/messages';
import type { TransactionForm, UploadAnswer } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { transactionUploadPath, uploadFile } from '../../api/upload';
import { notifySuccess, notifyWarning } from '../../notify';
import { useTRPC } from '../../trpc';

/** The toast of an upload whose bytes are already another item's current file. */
export const duplicateWarning = intakeMessages.duplicate;

/** The hint of an upload whose text reads as another item's title. */
export const looksLikeHint = (label: string) => `This looks like "${label}"`;

/**
 * A suggestion this sure names the document near its top: worth telling the agent it may be on
 * the wrong item. Lower scores come from a mere mention or shared words, too weak to second-guess.
 */
const HINT_SCORE = 0.9;

/** Files sent at once from one checklist item: a phone's uplink shares poorly beyond two. */
const PARALLEL_UPLOADS = 2;

export type UploadPhase = 'queued' | 'uploading' | 'uploaded' | 'attaching' | 'attached' | 'failed';

/** One file on its way to an item, and what came of it. */
export type ItemUpload = {
  id: number;
  name: string;
  phase: UploadPhase;
  /** Whole percent sent, while uploading. */
  progress: number;
  /** What to tell the agent when the file did not make it, and the server's words. */
  failure: { title: string; message: string } | null;
  /** Kept once stored, so a failed attach is tried again without sending the bytes twice. */
  answer: UploadAnswer | null;
  /** The pre-checks' findings on this file, for the agent to see at once. */
  warnings: string[];
  /** `This looks like "..."` when the file reads as another item's document. */
  hint: string | null;
  /** The item's version this file became. */
  version: number | null;
};

/** What the agent should know about a stored file before anyone reviews it. */
function noticesOf(answer: UploadAnswer, formId: string): Pick<ItemUpload, 'warnings' | 'hint'> {
  // The same bytes as this item's own current file: a second version of it, nothing to flag.
  const sameItem = answer.duplicateOf?.formId === formId;
  const warnings = answer.warnings
    .filter((warning) => !(warning.code === 'duplicate' && sameItem))
    .map((warning) => warning.message);
  const best = answer.suggestions[0];
  const hint = best && best.formId !== formId && best.score >= HINT_SCORE ? looksLikeHint(best.label) : null;
  return { warnings, hint };
}

/**
 * Uploads onto one checklist item: every file dropped or picked is sent (two at a time, each with
 * its own progress) and then attached in the order given, so the last one becomes the current
 * version (each attach is a version). A file that fails stays listed with the
 * reason; one stored but not attached can be attached again. The page reloads once the queue is
 * empty.
 */
export function useItemUploads(transactionId: string, form: TransactionForm, onFileStored: () => unknown) {
  const trpc = useTRPC();
  const setFormFile = useMutation(trpc.transactions.setFormFile.mutationOptions());
  const [uploads, setUploads] = useState<ItemUpload[]>([]);
  const nextId = useRef(0);
  const sending = useRef(0);
  const waitingToSend = useRef<Array<() => void>>([]);
  // Attaches run one after another in the order the files were given, whatever order the
  // uploads finish in.
  const attachQueue = useRef<Promise<void>>(Promise.resolve());
  const unsettled = useRef(0);
  const attachedSinceIdle = useRef(0);

  const update = (id: number, patch: Partial<ItemUpload>) =>
    setUploads((current) => current.map((upload) => (upload.id === id ? { ...upload, ...patch } : upload)));

  const add = (name: string, phase: UploadPhase, stored: UploadAnswer | null = null) => {
    const id = nextId.current++;
    const notices = stored ? noticesOf(stored, form._id) : { warnings: [], hint: null };
    setUploads((current) => [
      ...current,
      { id, name, phase, progress: 0, failure: null, answer: stored, ...notices, version: null },
    ]);
    return id;
  };

  /** A sending slot; a freed slot passes straight to the next file waiting, so never more than two. */
  const acquireSlot = () => {
    if (sending.current < PARALLEL_UPLOADS) {
      sending.current += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => waitingToSend.current.push(resolve));
  };
  const releaseSlot = () => {
    const next = waitingToSend.current.shift();
    if (next) next();
    else sending.current -= 1;
  };

  const attach = async (id: number, answer: UploadAnswer) => {
    update(id, { phase: 'attaching', failure: null });
    try {
      const stored = await setFormFile.mutateAsync({ id: transactionId, formId: form._id, url: answer.key });
      update(id, { phase: 'attached', version: stored.version });
    } catch (error) {
      update(id, {
        phase: 'failed',
        failure: { title: toasts.fileUrlUpdateFailed, message: serverMessageOf(error) },
      });
      return;
    }
    attachedSinceIdle.current += 1;
    const duplicate = answer.duplicateOf;
    if (duplicate && duplicate.formId !== form._id) notifyWarning(duplicateWarning(duplicate.label));
  };

  /** Once the queue is empty: one toast for what was attached, and the page reloads. */
  const settle = async () => {
    const attached = attachedSinceIdle.current;
    attachedSinceIdle.current = 0;
    // Attached files with nothing to say go; warnings and failures stay until dismissed.
    setUploads((current) =>
      current.filter((upload) => upload.phase !== 'attached' || upload.warnings.length > 0 || upload.hint),
    );
    if (attached === 0) return;
    notifySuccess(attached === 1 ? toasts.fileUploaded : `${attached} files uploaded successfully!`);
    await onFileStored();
  };

  /** Queues the attach of a file once `stored` settles (null: it was not stored). */
  const attachInTurn = (id: number, stored: Promise<UploadAnswer | null>) => {
    unsettled.current += 1;
    attachQueue.current = attachQueue.current.then(async () => {
      // Neither step rejects (each reports its own failure), so the queue never stops; a reload
      // that fails shows as the page's own load failure.
      const answer = await stored;
      if (answer) await attach(id, answer);
      unsettled.current -= 1;
      if (unsettled.current === 0) await settle().catch(() => {});
    });
  };

  const send = async (id: number, file: File): Promise<UploadAnswer | null> => {
    await acquireSlot();
    update(id, { phase: 'uploading' });
    try {
      const answer = await uploadFile(transactionUploadPath(transactionId), file, (progress) =>
        update(id, { progress }),
      );
      update(id, { phase: 'uploaded', answer, ...noticesOf(answer, form._id) });
      return answer;
    } catch (error) {
      update(id, {
        phase: 'failed',
        failure: { title: toasts.uploadFailed, message: serverMessageOf(error) },
      });
      return null;
    } finally {
      releaseSlot();
    }
  };

  /** Files dropped on the item or picked with Upload, in that order. */
  const uploadFiles = (files: readonly File[]) => {
    for (const file of files) {
      const id = add(file.name, 'queued');
      attachInTurn(id, send(id, file));
    }
  };

  /** A file already stored (the photos' PDF), attached like any other. */
  const attachStored = (answer: UploadAnswer) => {
    const id = add(answer.name, 'uploaded', answer);
    attachInTurn(id, Promise.resolve(answer));
  };

  const retryAttach = (id: number) => {
    const answer = uploads.find((upload) => upload.id === id)?.answer;
    if (answer) attachInTurn(id, Promise.resolve(answer));
  };

  const dismiss = (id: number) => setUploads((current) => current.filter((upload) => upload.id !== id));

  return { uploads, uploadFiles, attachStored, retryAttach, dismiss };
}
