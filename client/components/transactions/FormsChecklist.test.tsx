import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Transaction, UploadAnswer } from '../../../shared/schemas/transactions';
import { RestError } from '../../api/errors';
import { uploadFile } from '../../api/upload';
import { renderWithProviders } from '../../test-utils/render';
import {
  checklistForm,
  signInAs,
  TRANSACTION_ID,
  transaction,
  uploadAnswer,
} from '../../test-utils/transactions';
import { deferred, type StubHandler, stubTrpcClient, trpcError } from '../../test-utils/trpc-stub';
import { FormsChecklist } from './FormsChecklist';
import { today } from './key-dates';
import { openPacketPdf } from './packet-pdf';

// The XMLHttpRequest helper has its own tests; here it is the checklist's boundary.
vi.mock('../../api/upload', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../api/upload')>()),
  uploadFile: vi.fn(),
}));
// pdf.js needs a real browser (e2e/intake.spec.ts); here the packet's pages are their texts.
vi.mock('./packet-pdf', () => ({ openPacketPdf: vi.fn() }));

const DISCLOSURE = checklistForm(2, { label: 'Disclosure Form' });

const answer = uploadAnswer;

/** Each call of uploadFile, held open until the test settles it. */
function holdUploads() {
  const sent: {
    path: string;
    files: File[];
    report: (percent: number) => void;
    finish: (answer: UploadAnswer) => void;
    fail: (error: unknown) => void;
  }[] = [];
  vi.mocked(uploadFile).mockImplementation((path, file, onProgress) => {
    const held = deferred<UploadAnswer>();
    sent.push({
      path,
      files: file instanceof File ? [file] : [...file],
      report: (percent) => act(() => onProgress?.(percent)),
      finish: held.resolve,
      fail: held.reject,
    });
    return held.promise;
  });
  return sent;
}

function renderChecklist(
  handlers: Record<string, StubHandler>,
  { current = transaction(), reviewer = false }: { current?: Transaction; reviewer?: boolean } = {},
) {
  const stub = stubTrpcClient(handlers);
  const onFileStored = vi.fn();
  const view = renderWithProviders(
    <FormsChecklist
      transaction={current}
      onComment={async () => true}
      onReview={reviewer ? async () => true : undefined}
      onFileStored={onFileStored}
    />,
    { trpcClient: stub.client },
  );
  return { ...view, stub, onFileStored };
}

const card = (label: string) => screen.getByTestId(`form-${label}`);
const pdfFile = (name: string) => new File(['%PDF-1.7'], name, { type: 'application/pdf' });
const jpeg = (name: string) => new File(['jpeg'], name, { type: 'image/jpeg' });

function drop(target: HTMLElement, files: File[]) {
  const dataTransfer = { files, types: ['Files'], dropEffect: 'none' };
  fireEvent.dragEnter(target, { dataTransfer });
  fireEvent.dragOver(target, { dataTransfer });
  fireEvent.drop(target, { dataTransfer });
}

/** setFormFile as the server answers it: each attach is the item's next version. */
function versionCounter() {
  let version = 0;
  return () => {
    version += 1;
    return checklistForm(2, { label: 'Disclosure Form', version });
  };
}

beforeEach(() => signInAs('user'));
afterEach(() => {
  notifications.clean();
  vi.mocked(uploadFile).mockReset();
  vi.mocked(openPacketPdf).mockReset();
});

describe('dropping files on a checklist item', () => {
  it('uploads each with its own progress, two at a time, and attaches them in the order dropped', async () => {
    const sent = holdUploads();
    const { stub, onFileStored } = renderChecklist({ 'transactions.setFormFile': versionCounter() });
    const item = within(card('Disclosure Form'));
    drop(card('Disclosure Form'), [pdfFile('a.pdf'), pdfFile('b.pdf'), pdfFile('c.pdf')]);

    // Two go at once; the third waits its turn.
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent.map((call) => call.path)).toEqual([
      `/api/uploads/transactions/${TRANSACTION_ID}`,
      `/api/uploads/transactions/${TRANSACTION_ID}`,
    ]);
    expect(item.getByText('c.pdf · Waiting to upload')).toBeVisible();
    sent[1]?.report(70);
    expect(await item.findByText('70%')).toBeVisible();
    expect(item.getAllByRole('progressbar', { name: 'Upload progress' })).toHaveLength(2);

    // b finishes first, yet is attached only after a.
    sent[1]?.finish(
      answer('b.pdf', {
        warnings: [{ code: 'empty-signature-fields', message: '2 signature fields are not signed' }],
      }),
    );
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(await item.findByText('Waiting to attach')).toBeVisible();
    expect(stub.callsTo('transactions.setFormFile')).toEqual([]);
    sent[2]?.finish(answer('c.pdf'));
    sent[0]?.finish(answer('a.pdf'));

    expect(await screen.findByText('3 files uploaded successfully!')).toBeVisible();
    expect(stub.callsTo('transactions.setFormFile')).toEqual(
      ['a.pdf', 'b.pdf', 'c.pdf'].map((name) => ({
        id: TRANSACTION_ID,
        formId: DISCLOSURE._id,
        url: `transactions/${TRANSACTION_ID}/${name}`,
      })),
    );
    expect(onFileStored).toHaveBeenCalledOnce();
    // The files with nothing to say are gone; b's finding stays beside the item.
    const notice = within(item.getByTestId('upload-notices'));
    expect(notice.getByText('Check b.pdf (version 2)')).toBeVisible();
    expect(notice.getByText('2 signature fields are not signed')).toBeVisible();
    expect(item.queryByText(/a\.pdf/)).not.toBeInTheDocument();
    expect(item.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('keeps a file that failed in sight, and attaches a stored one again on request', async () => {
    const sent = holdUploads();
    let refuse = true;
    const next = versionCounter();
    const { stub, user } = renderChecklist({
      'transactions.setFormFile': () => {
        if (refuse) throw trpcError(409, 'This transaction is closed');
        return next();
      },
    });
    const item = within(card('Disclosure Form'));
    drop(card('Disclosure Form'), [pdfFile('scan.png'), pdfFile('deed.pdf')]);
    await waitFor(() => expect(sent).toHaveLength(2));
    sent[0]?.fail(new RestError(415, 'Unsupported media type', 'UNSUPPORTED_MEDIA_TYPE'));
    sent[1]?.finish(answer('deed.pdf'));

    expect(await item.findByText('scan.png: Unsupported media type')).toBeVisible();
    expect(item.getByText('Failed to upload file')).toBeVisible();
    expect(await item.findByText('deed.pdf: This transaction is closed')).toBeVisible();
    expect(item.getByText('Failed to update file URL')).toBeVisible();
    expect(screen.queryByText('File uploaded successfully!')).not.toBeInTheDocument();

    refuse = false;
    await user.click(item.getByRole('button', { name: 'Attach again' }));
    expect(await screen.findByText('File uploaded successfully!')).toBeVisible();
    expect(stub.callsTo('transactions.setFormFile')).toHaveLength(2);
    expect(item.queryByText('deed.pdf: This transaction is closed')).not.toBeInTheDocument();
    // The refused file is still listed: nothing goes without a word.
    expect(item.getByText('scan.png: Unsupported media type')).toBeVisible();
  });

  it('takes no drop on a closed transaction', async () => {
    holdUploads();
    renderChecklist({}, { current: transaction({ closedAt: '2025-04-01T10:00:00.000Z', status: 'closed' }) });
    drop(card('Disclosure Form'), [pdfFile('a.pdf')]);
    await act(async () => {});
    expect(uploadFile).not.toHaveBeenCalled();
    expect(within(card('Disclosure Form')).getByRole('button', { name: 'Photos to PDF' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Split a packet' })).toBeDisabled();
  });
});

describe('what the checks found', () => {
  it("says at once what the upload's checks found, and hints at the item the file looks like", async () => {
    vi.mocked(uploadFile).mockResolvedValueOnce(
      answer('agreement.pdf', {
        warnings: [{ code: 'blank-pages', message: 'Pages 3, 7 look blank' }],
        suggestions: [
          { formId: checklistForm(1)._id, label: 'Purchase Agreement', score: 0.95 },
          { formId: DISCLOSURE._id, label: 'Disclosure Form', score: 0.6 },
        ],
      }),
    );
    const { user } = renderChecklist({ 'transactions.setFormFile': versionCounter() });
    const input = card('Disclosure Form').querySelector('input[type="file"]:not([capture])');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
    await user.upload(input, pdfFile('agreement.pdf'));

    const notice = within(await within(card('Disclosure Form')).findByTestId('upload-notices'));
    expect(notice.getByText('Pages 3, 7 look blank')).toBeVisible();
    expect(notice.getByText('This looks like "Purchase Agreement"')).toBeVisible();
    await user.click(notice.getByRole('button', { name: 'Dismiss the checks of agreement.pdf' }));
    expect(within(card('Disclosure Form')).queryByTestId('upload-notices')).not.toBeInTheDocument();
  });

  it('hints only when another item is a near-certain match, and never at the same file twice', async () => {
    vi.mocked(uploadFile).mockResolvedValueOnce(
      answer('d.pdf', {
        duplicateOf: { formId: DISCLOSURE._id, label: 'Disclosure Form' },
        warnings: [{ code: 'duplicate', message: 'The same file is already attached to "Disclosure Form"' }],
        suggestions: [{ formId: checklistForm(1)._id, label: 'Purchase Agreement', score: 0.85 }],
      }),
    );
    const { user } = renderChecklist({ 'transactions.setFormFile': versionCounter() });
    const input = card('Disclosure Form').querySelector('input[type="file"]:not([capture])');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
    await user.upload(input, pdfFile('d.pdf'));
    expect(await screen.findByText('File uploaded successfully!')).toBeVisible();
    expect(screen.queryByText(/This looks like/)).not.toBeInTheDocument();
    expect(screen.queryByText(/The same file is already attached/)).not.toBeInTheDocument();
  });

  it("shows the current file's warnings on the item, to the agent and the reviewer alike", () => {
    for (const reviewer of [false, true]) {
      const view = renderChecklist(
        {},
        {
          reviewer,
          current: transaction({
            forms: [
              checklistForm(2, {
                label: 'Disclosure Form',
                version: 2,
                url: '/files/d.pdf',
                fileName: 'd.pdf',
                pages: 4,
                warnings: [
                  { code: 'empty-signature-fields', message: '1 signature field is not signed' },
                  { code: 'blank-pages', message: 'Page 3 looks blank' },
                ],
              }),
            ],
          }),
        },
      );
      const warnings = within(within(card('Disclosure Form')).getByTestId('form-warnings'));
      expect(warnings.getByText('Checks on version 2')).toBeVisible();
      expect(warnings.getByText('1 signature field is not signed')).toBeVisible();
      expect(warnings.getByText('Page 3 looks blank')).toBeVisible();
      view.unmount();
    }
  });
});

describe('photos to one PDF', () => {
  const urls = new Map<string, File>();
  beforeEach(() => {
    urls.clear();
    vi.stubGlobal('URL', {
      ...URL,
      createObjectURL: vi.fn((file: File) => {
        const url = `blob:photo-${file.name}`;
        urls.set(url, file);
        return url;
      }),
      revokeObjectURL: vi.fn((url: string) => urls.delete(url)),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('orders and removes photos, sends them as one PDF and attaches it to the item', async () => {
    const sent = holdUploads();
    const { user, stub } = renderChecklist({ 'transactions.setFormFile': versionCounter() });
    const item = within(card('Disclosure Form'));
    const camera = card('Disclosure Form').querySelector('input[capture="environment"]');
    if (!(camera instanceof HTMLInputElement)) throw new Error('no camera input');
    expect(camera).toHaveAttribute('accept', 'image/jpeg,image/png,image/webp');
    expect(camera).toHaveAttribute('multiple');
    await user.upload(camera, [jpeg('1.jpg'), jpeg('2.jpg'), jpeg('3.jpg')]);

    const dialog = within(await screen.findByRole('dialog', { name: 'Photos of Disclosure Form' }));
    const order = () => dialog.getAllByRole('img').map((image) => image.getAttribute('src'));
    expect(order()).toEqual(['blob:photo-1.jpg', 'blob:photo-2.jpg', 'blob:photo-3.jpg']);
    expect(dialog.getByRole('img', { name: 'Photo 1' })).toBeVisible();
    expect(dialog.getByRole('button', { name: 'Move photo 1 earlier' })).toBeDisabled();

    await user.click(dialog.getByRole('button', { name: 'Move photo 3 earlier' }));
    expect(order()).toEqual(['blob:photo-1.jpg', 'blob:photo-3.jpg', 'blob:photo-2.jpg']);
    await user.click(dialog.getByRole('button', { name: 'Move photo 1 later' }));
    expect(order()).toEqual(['blob:photo-3.jpg', 'blob:photo-1.jpg', 'blob:photo-2.jpg']);
    await user.click(dialog.getByRole('button', { name: 'Remove photo 2' }));
    expect(order()).toEqual(['blob:photo-3.jpg', 'blob:photo-2.jpg']);
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:photo-1.jpg');

    const another = screen
      .getByRole('dialog')
      .querySelector('input[capture="environment"]') as HTMLInputElement | null;
    if (!another) throw new Error('no input for another photo');
    expect(dialog.getByRole('button', { name: 'Take another photo' })).toBeVisible();
    await user.upload(another, jpeg('4.jpg'));
    expect(order()).toEqual(['blob:photo-3.jpg', 'blob:photo-2.jpg', 'blob:photo-4.jpg']);

    await user.click(dialog.getByRole('button', { name: 'Upload as one PDF' }));
    expect(sent).toHaveLength(1);
    // Named by the item and the day: 'Disclosure 2026-12-02.pdf', not 'photos.pdf'.
    expect(sent[0]?.path).toBe(
      `/api/uploads/transactions/${TRANSACTION_ID}/images?${new URLSearchParams({ name: `${DISCLOSURE.label} ${today()}` })}`,
    );
    expect(sent[0]?.files.map((file) => file.name)).toEqual(['3.jpg', '2.jpg', '4.jpg']);
    sent[0]?.report(55);
    expect(await dialog.findByText('55%')).toBeVisible();
    expect(dialog.getAllByRole('progressbar')).toHaveLength(1);

    sent[0]?.finish(answer('photos.pdf', { pages: 3 }));
    expect(await screen.findByText('File uploaded successfully!')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(stub.callsTo('transactions.setFormFile')).toEqual([
      { id: TRANSACTION_ID, formId: DISCLOSURE._id, url: `transactions/${TRANSACTION_ID}/photos.pdf` },
    ]);
    // Every photo shown was let go.
    expect(urls.size).toBe(0);
    expect(item.queryByText('Failed to upload file')).not.toBeInTheDocument();
  });

  it('keeps the photos when the upload fails, and lets them go on Cancel', async () => {
    vi.mocked(uploadFile).mockRejectedValueOnce(
      new RestError(400, 'Photo 2 could not be read: send JPEG, PNG or WebP photos', 'BAD_REQUEST'),
    );
    const { user, stub } = renderChecklist({});
    const camera = card('Disclosure Form').querySelector('input[capture="environment"]');
    if (!(camera instanceof HTMLInputElement)) throw new Error('no camera input');
    await user.upload(camera, [jpeg('1.jpg'), jpeg('2.jpg')]);
    const dialog = within(await screen.findByRole('dialog', { name: 'Photos of Disclosure Form' }));
    await user.click(dialog.getByRole('button', { name: 'Upload as one PDF' }));
    expect(
      await dialog.findByText(
        'Failed to upload file: Photo 2 could not be read: send JPEG, PNG or WebP photos',
      ),
    ).toBeVisible();
    expect(dialog.getAllByRole('img')).toHaveLength(2);
    expect(stub.callsTo('transactions.setFormFile')).toEqual([]);

    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(urls.size).toBe(0);
  });
});

describe('the packet splitter', () => {
  const PURCHASE = transaction({
    forms: [
      checklistForm(1, { label: 'Residential Purchase Agreement' }),
      checklistForm(2, { label: 'Agency Disclosure' }),
      checklistForm(3, { label: 'Wire Fraud Advisory' }),
      checklistForm(4, { label: 'Closing Disclosure' }),
    ],
  });
  const PAGES = [
    'Residential Purchase Agreement\nThe buyer offers to purchase',
    'Signatures',
    'Agency Disclosure\nDisclosure regarding real estate agency relationship',
    'Wire Fraud Advisory\nNever wire money on instructions sent by e-mail',
    'Acknowledgment',
  ];

  function openPdf(texts: string[]) {
    vi.mocked(openPacketPdf).mockResolvedValue({
      pageCount: texts.length,
      readPageTexts: async () => texts,
      drawThumbnail: async (page) => `data:image/png;base64,page${page}`,
      close: vi.fn(),
    });
  }

  async function choosePacket(user: ReturnType<typeof renderChecklist>['user'], file: File) {
    const input = screen.getByTestId('packet-drop').querySelector('input[type="file"]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no packet input');
    expect(input).toHaveAttribute('accept', 'application/pdf');
    await user.upload(input, file);
  }

  it('proposes a document per title, lets the agent cut, merge and reassign, and splits', async () => {
    openPdf(PAGES);
    vi.mocked(uploadFile).mockResolvedValueOnce(answer('packet.pdf', { pages: 5 }));
    const { user, stub, onFileStored } = renderChecklist(
      { 'transactions.split': () => PURCHASE },
      { current: PURCHASE },
    );
    expect(screen.getByText('Drop a multi-page PDF here to split it between documents')).toBeVisible();
    await choosePacket(user, pdfFile('packet.pdf'));
    expect(uploadFile).toHaveBeenCalledWith(
      `/api/uploads/transactions/${TRANSACTION_ID}`,
      expect.any(File),
      expect.any(Function),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Split packet.pdf (5 pages)' }));
    expect(vi.mocked(openPacketPdf)).toHaveBeenCalledWith(`/files/transactions/${TRANSACTION_ID}/packet.pdf`);
    expect(await dialog.findByRole('combobox', { name: 'Pages 1-2' })).toHaveValue(
      'Residential Purchase Agreement',
    );
    expect(dialog.getByRole('combobox', { name: 'Page 3' })).toHaveValue('Agency Disclosure');
    expect(dialog.getByRole('combobox', { name: 'Pages 4-5' })).toHaveValue('Wire Fraud Advisory');
    for (const page of [1, 2, 3, 4, 5])
      expect(await dialog.findByRole('img', { name: `Page ${page}` })).toBeVisible();

    // Page 5 is a document of its own, filed as the Closing Disclosure; page 3 joins the agreement.
    await user.click(dialog.getByRole('button', { name: 'New document from page 5' }));
    expect(dialog.getByRole('combobox', { name: 'Page 5' })).toHaveValue('Leave out');
    expect(dialog.getByText('Left out: page 5')).toBeVisible();
    await user.click(dialog.getByRole('combobox', { name: 'Page 5' }));
    await user.click(await screen.findByRole('option', { name: 'Closing Disclosure' }));
    await user.click(dialog.getByRole('button', { name: 'Merge with previous: page 3' }));
    expect(dialog.getByRole('combobox', { name: 'Pages 1-3' })).toHaveValue('Residential Purchase Agreement');
    expect(dialog.queryByText(/Left out/)).not.toBeInTheDocument();

    await user.click(dialog.getByRole('button', { name: 'Split' }));
    expect(await screen.findByText('Packet split into 3 documents')).toBeVisible();
    expect(stub.callsTo('transactions.split')).toEqual([
      {
        id: TRANSACTION_ID,
        key: `transactions/${TRANSACTION_ID}/packet.pdf`,
        parts: [
          { formId: checklistForm(1)._id, pages: '1-3' },
          { formId: checklistForm(3)._id, pages: '4' },
          { formId: checklistForm(4)._id, pages: '5' },
        ],
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onFileStored).toHaveBeenCalledOnce();
  });

  it("keeps the dialog open with the server's refusal", async () => {
    openPdf(PAGES);
    vi.mocked(uploadFile).mockResolvedValueOnce(answer('packet.pdf', { pages: 5 }));
    const { user, onFileStored } = renderChecklist(
      {
        'transactions.split': () => {
          throw trpcError(400, 'Page 6 is out of range: the document has 5 pages');
        },
      },
      { current: PURCHASE },
    );
    await choosePacket(user, pdfFile('packet.pdf'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Split packet.pdf (5 pages)' }));
    await dialog.findByRole('combobox', { name: 'Pages 1-2' });
    await user.click(dialog.getByRole('button', { name: 'Split' }));
    expect(await dialog.findByText('Page 6 is out of range: the document has 5 pages')).toBeVisible();
    expect(onFileStored).not.toHaveBeenCalled();
  });

  it('still splits by page numbers when pdf.js cannot read the packet', async () => {
    vi.mocked(openPacketPdf).mockRejectedValue(new Error('Invalid PDF structure'));
    vi.mocked(uploadFile).mockResolvedValueOnce(answer('packet.pdf', { pages: 5 }));
    const { user, stub } = renderChecklist({ 'transactions.split': () => PURCHASE }, { current: PURCHASE });
    await choosePacket(user, pdfFile('packet.pdf'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Split packet.pdf (5 pages)' }));
    expect(
      await dialog.findByText('The pages could not be shown here: split them by their numbers.'),
    ).toBeVisible();
    expect(dialog.getByRole('combobox', { name: 'Pages 1-5' })).toHaveValue('Leave out');
    expect(dialog.getByRole('button', { name: 'Split' })).toBeDisabled();
    await user.click(dialog.getByRole('button', { name: 'New document from page 3' }));
    await user.click(dialog.getByRole('combobox', { name: 'Pages 3-5' }));
    await user.click(await screen.findByRole('option', { name: 'Agency Disclosure' }));
    await user.click(dialog.getByRole('button', { name: 'Split' }));
    expect(await screen.findByText('Packet split into 1 document')).toBeVisible();
    expect(stub.callsTo('transactions.split')).toEqual([
      {
        id: TRANSACTION_ID,
        key: `transactions/${TRANSACTION_ID}/packet.pdf`,
        parts: [{ formId: checklistForm(2)._id, pages: '3-5' }],
      },
    ]);
  });

  it('says a one-page PDF has nothing to split, and opens no splitter', async () => {
    vi.mocked(uploadFile).mockResolvedValueOnce(answer('w9.pdf', { pages: 1 }));
    const { user } = renderChecklist({}, { current: PURCHASE });
    await choosePacket(user, pdfFile('w9.pdf'));
    expect(
      await screen.findByText('w9.pdf has one page, nothing to split: upload it onto its document instead.'),
    ).toBeVisible();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(openPacketPdf).not.toHaveBeenCalled();
  });

  it('takes a dropped PDF, and refuses anything else without uploading it', async () => {
    openPdf(PAGES);
    vi.mocked(uploadFile).mockResolvedValueOnce(answer('packet.pdf', { pages: 5 }));
    renderChecklist({}, { current: PURCHASE });
    drop(screen.getByTestId('packet-drop'), [jpeg('photo.jpg')]);
    expect(
      await screen.findByText('Drop one PDF to split; other files go onto their document directly.'),
    ).toBeVisible();
    expect(uploadFile).not.toHaveBeenCalled();
    drop(screen.getByTestId('packet-drop'), [pdfFile('packet.pdf')]);
    expect(await screen.findByRole('dialog', { name: 'Split packet.pdf (5 pages)' })).toBeVisible();
  });
});

describe('inline preview', () => {
  it('shows the current file inside the page, no new tab, and hides it again', async () => {
    const current = transaction({
      forms: [
        checklistForm(1, {
          label: 'Photo ID',
          url: '/files/transactions/x/id.png?sig=1',
          fileName: 'id.png',
          version: 1,
        }),
        checklistForm(2, { label: 'Disclosure Form' }),
      ],
    });
    renderChecklist({}, { current });
    // No file, nothing to preview.
    expect(
      within(card('Disclosure Form')).queryByRole('button', { name: 'Preview' }),
    ).not.toBeInTheDocument();

    const preview = within(card('Photo ID')).getByRole('button', { name: 'Preview' });
    expect(preview).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(preview);
    expect(preview).toHaveAttribute('aria-expanded', 'true');
    const region = within(card('Photo ID')).getByRole('region', { name: 'Document: Photo ID' });
    expect(within(region).getByRole('img', { name: 'Photo ID (id.png)' })).toHaveAttribute(
      'src',
      '/files/transactions/x/id.png?sig=1',
    );
    fireEvent.click(preview);
    expect(
      within(card('Photo ID')).queryByRole('region', { name: 'Document: Photo ID' }),
    ).not.toBeInTheDocument();
  });
});
