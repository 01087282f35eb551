import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { complianceMessages } from '../../../shared/messages';
import type { ReviewQueueItem } from '../../../shared/schemas/compliance';
import { PHONE_QUERY, TOUCH_ONLY_QUERY } from '../../breakpoints';
import { deviceMatching } from '../../test-utils/media';
import { renderWithProviders } from '../../test-utils/render';
import { queueItem, reasons, waiverItem } from '../../test-utils/review-queue';
import { signInAs, uuid } from '../../test-utils/transactions';
import { stubTrpcClient } from '../../test-utils/trpc-stub';
import { ReviewPanel } from './ReviewPanel';

// pdf.js cannot run in jsdom: the viewer is a lazy module of its own, replaced here.
vi.mock('./PdfViewer', () => ({
  default: ({ url }: { url: string }) => <div data-testid="pdf-viewer">{url}</div>,
}));

function renderPanel(item: ReviewQueueItem) {
  const stub = stubTrpcClient({
    'rejectionReasons.list': () => reasons,
    'transactions.versions': () => ({ versions: [] }),
    'adminTransactions.review': () => ({}),
    'adminTransactions.decideWaiver': () => ({}),
  });
  const on = { previous: vi.fn(), next: vi.fn(), close: vi.fn(), decided: vi.fn() };
  const view = renderWithProviders(
    <ReviewPanel
      opened
      item={item}
      position={2}
      total={3}
      hasPrevious
      hasNext
      onPrevious={on.previous}
      onNext={on.next}
      onClose={on.close}
      onDecided={on.decided}
    />,
    { path: '/admin/review', trpcClient: stub.client },
  );
  return { ...view, stub, on };
}

const withFile = (overrides: Partial<ReviewQueueItem['form']>) => {
  const item = queueItem(1);
  return { ...item, form: { ...item.form, ...overrides } };
};

const item1Url = queueItem(1).form.url ?? '';

beforeEach(() => signInAs('admin'));
afterEach(() => vi.restoreAllMocks());

describe('ReviewPanel: the pre-checks beside the document', () => {
  it('lists each warning of the file under review, and its page count', async () => {
    renderPanel(
      withFile({
        pages: 12,
        warnings: [
          { code: 'empty-signature-fields', message: '2 signature fields are not signed' },
          { code: 'blank-pages', message: 'Pages 3, 7 look blank' },
        ],
      }),
    );
    const alert = await screen.findByTestId('review-warnings');
    expect(within(alert).getByText('Pre-checks')).toBeInTheDocument();
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['2 signature fields are not signed', 'Pages 3, 7 look blank']);
    expect(screen.getByText(/Version 2 · document-1\.pdf · 12 pages · submitted/)).toBeInTheDocument();
    // Beside the document, which the same dialog shows.
    expect(await screen.findByTestId('pdf-viewer')).toHaveTextContent(item1Url);
  });

  it('no warnings, no alert; one page says so; no page count for a file that is not a readable PDF', () => {
    const { unmount } = renderPanel(withFile({ pages: 1, warnings: [] }));
    expect(screen.queryByTestId('review-warnings')).not.toBeInTheDocument();
    expect(screen.getByText(/Version 2 · document-1\.pdf · 1 page · submitted/)).toBeInTheDocument();
    unmount();

    renderPanel(withFile({ pages: null, fileName: 'photo.jpg' }));
    expect(screen.getByText(/Version 2 · photo\.jpg · submitted/)).toBeInTheDocument();
    expect(screen.queryByText(/pages?\b ·/)).not.toBeInTheDocument();
  });

  it('a waiver has no file under review: no pre-checks shown', () => {
    const waiver = waiverItem(1);
    renderPanel({
      ...waiver,
      form: { ...waiver.form, warnings: [{ code: 'duplicate', message: 'Same file as Document 2' }] },
    });
    expect(screen.getByText('Waiver requested')).toBeInTheDocument();
    expect(screen.queryByTestId('review-warnings')).not.toBeInTheDocument();
  });
});

/** Has every letter of the shortcuts (a, r, j, k) and a capital J. */
const REASON = 'bad scan, ask Jake for a clear copy';
const commentBox = () => screen.getByRole('textbox', { name: 'Comment' });
const legend = () => screen.getByTestId('shortcut-legend');
const NORMAL_LEGEND = 'A accept · R reject · J next · K previous · Esc close';
const REJECTING_LEGEND = 'Enter reject · Shift+Enter new line · Esc cancel';

describe('ReviewPanel: the keyboard', () => {
  it('R, then typing: the text is the rejection, no letter is a shortcut; Enter rejects with exactly that text', async () => {
    const { user, stub, on } = renderPanel(queueItem(1));
    await screen.findByRole('group', { name: 'Rejection reasons' });
    expect(legend()).toHaveTextContent(NORMAL_LEGEND);

    await user.keyboard('r');
    expect(commentBox()).toHaveFocus();
    expect(commentBox()).toHaveValue('');
    expect(legend()).toHaveTextContent(REJECTING_LEGEND);
    await user.keyboard(REASON);

    expect(commentBox()).toHaveValue(REASON);
    expect(stub.callsTo('adminTransactions.review')).toEqual([]);
    expect(on.next).not.toHaveBeenCalled();
    expect(on.previous).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(on.decided).toHaveBeenCalledOnce());
    expect(stub.callsTo('adminTransactions.review')).toEqual([
      { id: uuid(1), formId: uuid(101), status: 'rejected', version: 2, text: REASON },
    ]);
    expect(await screen.findByText('Document rejected')).toBeInTheDocument();
    expect(screen.queryByText('Document accepted')).not.toBeInTheDocument();
  });

  it('R on a waiver: the typed text is the denial, Enter denies with it', async () => {
    const { user, stub, on } = renderPanel(waiverItem(1));
    expect(legend()).toHaveTextContent('A approve · R deny · J next · K previous · Esc close');
    await user.keyboard('r');
    expect(legend()).toHaveTextContent('Enter deny · Shift+Enter new line · Esc cancel');
    await user.keyboard(`${REASON}{Enter}`);
    await waitFor(() => expect(on.decided).toHaveBeenCalledOnce());
    expect(stub.callsTo('adminTransactions.decideWaiver')).toEqual([
      { id: uuid(1), formId: uuid(101), approve: false, text: REASON },
    ]);
    expect(on.next).not.toHaveBeenCalled();
  });

  it('the reasons are a Tab away from the comment; letters on a chip are not shortcuts; Enter rejects with both', async () => {
    const { user, stub, on } = renderPanel(queueItem(1));
    const group = await screen.findByRole('group', { name: 'Rejection reasons' });
    await user.keyboard('r');
    await user.keyboard('Wrong house');
    await user.tab();
    const chip = within(group).getByRole('checkbox', { name: 'Missing signature' });
    expect(chip).toHaveFocus();
    await user.keyboard(' ');
    expect(chip).toBeChecked();

    await user.keyboard('ajkr');
    expect(stub.callsTo('adminTransactions.review')).toEqual([]);
    expect(on.next).not.toHaveBeenCalled();
    expect(on.previous).not.toHaveBeenCalled();
    expect(chip).toHaveFocus();

    await user.keyboard('{Enter}');
    await waitFor(() => expect(on.decided).toHaveBeenCalledOnce());
    expect(stub.callsTo('adminTransactions.review')).toEqual([
      {
        id: uuid(1),
        formId: uuid(101),
        status: 'rejected',
        version: 2,
        text: 'Wrong house',
        reasons: ['missing-signature'],
      },
    ]);
  });

  it('Shift+Enter is a new line; Escape leaves rejecting, keeps the dialog and the text, and the shortcuts work again', async () => {
    const { user, stub, on } = renderPanel(queueItem(1));
    await user.keyboard('r');
    await user.keyboard('Line one{Shift>}{Enter}{/Shift}Line two');
    expect(commentBox()).toHaveValue('Line one\nLine two');
    expect(stub.callsTo('adminTransactions.review')).toEqual([]);

    await user.keyboard('{Escape}');
    expect(on.close).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeVisible();
    expect(legend()).toHaveTextContent(NORMAL_LEGEND);
    expect(commentBox()).not.toHaveFocus();
    expect(commentBox()).toHaveValue('Line one\nLine two');

    await user.keyboard('j');
    expect(on.next).toHaveBeenCalledOnce();
    // Out of rejecting, Escape closes as it always did.
    await user.keyboard('{Escape}');
    expect(on.close).toHaveBeenCalledOnce();
  });

  it('Ctrl+Enter in the comment still rejects, without R first', async () => {
    const { user, stub, on } = renderPanel(queueItem(1));
    await user.type(commentBox(), 'Wrong house{Control>}{Enter}{/Control}');
    await waitFor(() => expect(on.decided).toHaveBeenCalledOnce());
    expect(stub.callsTo('adminTransactions.review')).toEqual([
      { id: uuid(1), formId: uuid(101), status: 'rejected', version: 2, text: 'Wrong house' },
    ]);
  });

  it('Reject with neither reason nor text asks for one and starts rejecting: what is typed next, then Enter, rejects', async () => {
    const { user, stub, on } = renderPanel(queueItem(1));
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(screen.getByText(complianceMessages.rejectionNeedsReason)).toBeVisible();
    expect(stub.callsTo('adminTransactions.review')).toEqual([]);
    expect(commentBox()).toHaveFocus();
    expect(legend()).toHaveTextContent(REJECTING_LEGEND);

    await user.keyboard('Blurry, ask again{Enter}');
    await waitFor(() => expect(on.decided).toHaveBeenCalledOnce());
    expect(stub.callsTo('adminTransactions.review')).toEqual([
      { id: uuid(1), formId: uuid(101), status: 'rejected', version: 2, text: 'Blurry, ask again' },
    ]);
  });

  it('the decision is a form: the comment, the reasons and both buttons; out of it, the shortcuts work', async () => {
    const { user, stub } = renderPanel(queueItem(1));
    const form = screen.getByRole('form', { name: 'Decision' });
    expect(form).toContainElement(commentBox());
    expect(form).toContainElement(await screen.findByRole('group', { name: 'Rejection reasons' }));
    expect(form).toContainElement(screen.getByRole('button', { name: 'Accept' }));
    expect(form).toContainElement(screen.getByRole('button', { name: 'Reject' }));
    await user.keyboard('a');
    await waitFor(() =>
      expect(stub.callsTo('adminTransactions.review')).toEqual([
        { id: uuid(1), formId: uuid(101), status: 'accepted', version: 2 },
      ]),
    );
  });

  it('shows no legend on a touch screen, where there is no keyboard', () => {
    deviceMatching(TOUCH_ONLY_QUERY);
    renderPanel(queueItem(1));
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
    expect(screen.queryByTestId('shortcut-legend')).not.toBeInTheDocument();
  });

  it('on a phone, Accept and Reject sit in a bar after the document, and Reject still sends the form', async () => {
    deviceMatching(PHONE_QUERY, TOUCH_ONLY_QUERY);
    const { user, stub, on } = renderPanel(queueItem(1));
    const bar = screen.getByTestId('decision-bar');
    const reject = within(bar).getByRole('button', { name: 'Reject' });
    expect(within(bar).getByRole('button', { name: 'Accept' })).toBeVisible();
    const documentArea = screen.getByRole('region', { name: 'Document: Document 1' });
    expect(documentArea.compareDocumentPosition(bar) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await user.type(commentBox(), 'Page 2 is cut off');
    await user.click(reject);
    await waitFor(() => expect(on.decided).toHaveBeenCalledOnce());
    expect(stub.callsTo('adminTransactions.review')).toEqual([
      { id: uuid(1), formId: uuid(101), status: 'rejected', version: 2, text: 'Page 2 is cut off' },
    ]);
  });
});
