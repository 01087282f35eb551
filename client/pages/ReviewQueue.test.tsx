import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { complianceMessages } from '../../shared/messages';
import type { ReviewQueueInput, ReviewQueueItem } from '../../shared/schemas/compliance';
import { waitingText } from '../components/review/QueueRow';
import { renderWithProviders } from '../test-utils/render';
import { queueItem, queuePage, reasons, waiverItem } from '../test-utils/review-queue';
import { comment, reviewer, signInAs, uuid } from '../test-utils/transactions';
import { type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { testProfile } from '../test-utils/users';
import { EMPTY_QUEUE, ReviewQueue } from './ReviewQueue';

// pdf.js cannot run in jsdom: the viewer is a lazy module of its own, replaced here.
vi.mock('../components/review/PdfViewer', () => ({
  default: ({ url }: { url: string }) => <div data-testid="pdf-viewer">{url}</div>,
}));

const toast = (text: string) =>
  screen.findByText(text, {
    selector: '.mantine-Notification-description, .mantine-Notification-description *',
  });

type ReviewCall = { id: string; formId: string };

/**
 * A queue the server keeps: a decision takes the item out, so the page's refetch sees the next.
 * `items` is every item of the queue, oldest first.
 */
function renderQueue(initial: ReviewQueueItem[], handlers: Record<string, StubHandler> = {}) {
  let items = [...initial];
  /** The server's queue changes by someone else's hand (an upload, another reviewer's decision). */
  const setItems = (next: ReviewQueueItem[]) => {
    items = next;
  };
  const decide = (input: unknown) => {
    const { formId } = input as ReviewCall;
    items = items.filter((item) => item.form._id !== formId);
    return {};
  };
  const stub = stubTrpcClient({
    'reviewQueue.list': (input) => {
      const { page, limit } = input as ReviewQueueInput;
      return queuePage(items.slice((page - 1) * limit, page * limit), items.length, limit);
    },
    'reviewQueue.bulkAccept': (input) => {
      const chosen = (input as { items: { formId: string }[] }).items.map((item) => item.formId);
      items = items.filter((item) => !chosen.includes(item.form._id));
      return { reviewed: chosen.length };
    },
    'adminTransactions.review': decide,
    'adminTransactions.decideWaiver': decide,
    'templates.all': () => [
      { _id: uuid(901), type: 'Sale', role: 'Buyer', forms: [], optionalForms: [] },
      { _id: uuid(902), type: 'Lease', role: 'Tenant', forms: [], optionalForms: [] },
      { _id: uuid(903), type: 'Sale', role: 'Seller', forms: [], optionalForms: [] },
    ],
    'users.list': () => ({
      users: [
        testProfile({ _id: uuid(801), firstName: 'Amy', lastName: 'Agent', role: 'user' }),
        testProfile({ _id: uuid(802), firstName: 'Adam', lastName: 'Admin', role: 'admin' }),
      ],
      totalUsers: 2,
      totalPages: 1,
    }),
    'rejectionReasons.list': () => reasons,
    'transactions.versions': () => ({ versions: [] }),
    ...handlers,
  });
  const view = renderWithProviders(<ReviewQueue />, { path: '/admin/review', trpcClient: stub.client });
  return { ...view, stub, setItems };
}

const rowOf = (label: string) => {
  const row = screen.getByText(label, { selector: 'p' }).closest('tr');
  if (!row) throw new Error(`no row for ${label}`);
  return row;
};
const dialog = () => within(screen.getByRole('dialog'));
/** The item review mode shows: its label is the panel's third-level heading. */
const shownItem = () => dialog().getByRole('heading', { level: 3 }).textContent;

beforeEach(() => signInAs('admin'));
// Toasts live in a store of their own: one test's must not fill the next one's screen.
afterEach(() => notifications.clean());

describe('waitingText', () => {
  it('says how long in the largest whole unit', () => {
    expect(waitingText(2 * 86_400 + 5_000)).toBe('waiting 2 days');
    expect(waitingText(86_400)).toBe('waiting 1 day');
    expect(waitingText(3 * 3_600 + 59)).toBe('waiting 3 hours');
    expect(waitingText(5 * 60 + 30)).toBe('waiting 5 minutes');
    expect(waitingText(20)).toBe('waiting less than a minute');
  });
});

describe('Review Queue', () => {
  it('lists the items oldest first: document, transaction, agent, type, how long it waits', async () => {
    renderQueue([
      queueItem(1, { waitingSeconds: 2 * 86_400 + 60 }),
      waiverItem(2),
      queueItem(3, { waitingSeconds: 5 * 60 }),
    ]);
    expect(screen.getByRole('heading', { level: 1, name: 'Review Queue' })).toBeVisible();
    await screen.findByText('Document 1');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'Document 1',
      'Document 2Waiver',
      'Document 3',
    ]);
    const first = within(rowOf('Document 1'));
    expect(first.getByText('1 Main Street, City 1, CA 90210')).toBeVisible();
    expect(first.getByText('Dana Agent')).toBeVisible();
    expect(first.getByText('Sale')).toBeVisible();
    expect(first.getByText('waiting 2 days')).toBeVisible();
    expect(within(rowOf('Document 3')).getByText('waiting 5 minutes')).toBeVisible();
    // A waiver is decided one at a time: no checkbox for bulk accept.
    expect(within(rowOf('Document 2')).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(first.getByRole('checkbox')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rejection reasons' })).toHaveAttribute(
      'href',
      '/admin/rejection-reasons',
    );
  });

  it('says when nothing is waiting', async () => {
    renderQueue([]);
    expect(await screen.findByText(EMPTY_QUEUE)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Accept selected (0)' })).toBeDisabled();
  });

  it('sends the type and agent filters with the query, from page 1', async () => {
    const { user, stub } = renderQueue([queueItem(1)]);
    await screen.findByText('Document 1');
    expect(stub.callsTo('reviewQueue.list')).toEqual([{ page: 1, limit: 10 }]);

    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    // Each type once, from the templates.
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Lease', 'Sale']);
    await user.click(screen.getByRole('option', { name: 'Lease' }));
    await waitFor(() =>
      expect(stub.callsTo('reviewQueue.list').at(-1)).toEqual({ page: 1, limit: 10, type: 'Lease' }),
    );

    await user.click(screen.getByRole('combobox', { name: 'Agent' }));
    // Agents only: admins hold no transactions.
    expect(await screen.findByRole('option', { name: 'Amy Agent' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Adam Admin' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Amy Agent' }));
    await waitFor(() =>
      expect(stub.callsTo('reviewQueue.list').at(-1)).toEqual({
        page: 1,
        limit: 10,
        type: 'Lease',
        agentId: uuid(801),
      }),
    );
  });

  it('accepts the selected documents in one call, with the versions on screen', async () => {
    const { user, stub } = renderQueue([
      queueItem(1),
      queueItem(2, { form: { ...queueItem(2).form, version: 4 } }),
      queueItem(3),
    ]);
    await screen.findByText('Document 1');
    await user.click(within(rowOf('Document 1')).getByRole('checkbox'));
    await user.click(within(rowOf('Document 2')).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Accept selected (2)' }));
    expect(await toast('2 documents accepted')).toBeVisible();
    expect(stub.callsTo('reviewQueue.bulkAccept')).toEqual([
      {
        items: [
          { transactionId: uuid(1), formId: uuid(101), version: 2 },
          { transactionId: uuid(2), formId: uuid(102), version: 4 },
        ],
      },
    ]);
    // Refreshed: the accepted ones are gone, the selection is cleared.
    await waitFor(() => expect(screen.queryByText('Document 1')).not.toBeInTheDocument());
    expect(screen.getByText('Document 3')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Accept selected (0)' })).toBeDisabled();
  });

  it('selects every document of the page at once, waivers aside', async () => {
    const { user, stub } = renderQueue([queueItem(1), waiverItem(2), queueItem(3)]);
    await screen.findByText('Document 1');
    await user.click(screen.getByRole('checkbox', { name: 'Select all documents on this page' }));
    await user.click(screen.getByRole('button', { name: 'Accept selected (2)' }));
    await waitFor(() =>
      expect(stub.callsTo('reviewQueue.bulkAccept')).toEqual([
        {
          items: [
            { transactionId: uuid(1), formId: uuid(101), version: 2 },
            { transactionId: uuid(3), formId: uuid(103), version: 2 },
          ],
        },
      ]),
    );
  });

  it("shows the server's message when a selected document is no longer awaiting review", async () => {
    const message = complianceMessages.notAwaitingReview('Document 1', '1 Main Street');
    const { user } = renderQueue([queueItem(1), queueItem(2)], {
      'reviewQueue.bulkAccept': () => {
        throw trpcError(409, message);
      },
    });
    await screen.findByText('Document 1');
    await user.click(within(rowOf('Document 1')).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Accept selected (1)' }));
    expect(await toast(message)).toBeVisible();
  });

  describe('review mode', () => {
    it('opens an item from its Review button with the document, its facts, comments and shortcuts', async () => {
      const item = queueItem(1, {
        form: {
          ...queueItem(1).form,
          version: 3,
          comments: [
            comment(1, {
              role: 'admin',
              status: 'rejected',
              text: 'Page 2 is missing',
              reasons: [{ code: 'missing-signature', label: 'Missing signature' }],
              user: reviewer,
            }),
          ],
        },
      });
      const { user, stub } = renderQueue([item]);
      await user.click(await screen.findByRole('button', { name: 'Review' }));
      expect(await screen.findByRole('dialog')).toBeVisible();
      expect(shownItem()).toBe('Document 1');
      expect(dialog().getByText(/Version 3 · document-1.pdf · submitted/)).toBeVisible();
      expect(dialog().getByText('Required')).toBeVisible();
      expect(dialog().getByText('Page 2 is missing')).toBeVisible();
      expect(dialog().getAllByText('Missing signature').length).toBeGreaterThan(0);
      expect(dialog().getByTestId('shortcut-legend')).toHaveTextContent(
        'A accept · R reject · J next · K previous · Esc close',
      );
      // A PDF goes to the viewer, inside the named document area.
      const area = dialog().getByRole('region', { name: 'Document: Document 1' });
      expect(within(area).getByRole('group', { name: 'PDF viewer' })).toBeInTheDocument();
      expect(await within(area).findByTestId('pdf-viewer')).toHaveTextContent(item.form.url ?? '');
      await waitFor(() =>
        expect(stub.callsTo('transactions.versions')[0]).toEqual({ id: uuid(1), formId: uuid(101) }),
      );
    });

    it('shows an image as itself and other files as a line and an Open link', async () => {
      const image = queueItem(1, {
        form: { ...queueItem(1).form, fileName: 'scan.png', url: '/files/transactions/1/scan.png?sig=x' },
      });
      const docx = queueItem(2, {
        form: {
          ...queueItem(2).form,
          fileName: 'addendum.docx',
          url: '/files/transactions/2/addendum.docx?sig=y',
        },
      });
      const { user } = renderQueue([image, docx]);
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[0] as HTMLElement);
      expect(await screen.findByRole('img', { name: 'Document 1 (scan.png)' })).toHaveAttribute(
        'src',
        '/files/transactions/1/scan.png?sig=x',
      );
      await user.keyboard('j');
      expect(await dialog().findByText('addendum.docx cannot be shown here.')).toBeVisible();
      expect(dialog().getByRole('link', { name: 'Open' })).toHaveAttribute(
        'href',
        '/files/transactions/2/addendum.docx?sig=y',
      );
    });

    it('opens the focused row on Enter', async () => {
      renderQueue([queueItem(1), queueItem(2)]);
      await screen.findByText('Document 2');
      const row = rowOf('Document 2');
      row.focus();
      fireEvent.keyDown(row, { key: 'Enter' });
      expect(await screen.findByRole('dialog')).toBeVisible();
      expect(shownItem()).toBe('Document 2');
    });

    it('A accepts the item with its version and moves on to the next by itself', async () => {
      const { user, stub } = renderQueue([queueItem(1), queueItem(2), queueItem(3)]);
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[0] as HTMLElement);
      await screen.findByRole('dialog');
      await user.keyboard('a');
      await waitFor(() => expect(shownItem()).toBe('Document 2'));
      expect(stub.callsTo('adminTransactions.review')).toEqual([
        { id: uuid(1), formId: uuid(101), status: 'accepted', version: 2 },
      ]);
      expect(await toast('Document accepted')).toBeVisible();
      expect(dialog().getByText('Item 1 of 2')).toBeVisible();
    });

    it('J and K move between items without deciding', async () => {
      const { user, stub } = renderQueue([queueItem(1), queueItem(2), queueItem(3)]);
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[0] as HTMLElement);
      await screen.findByRole('dialog');
      await user.keyboard('j');
      expect(shownItem()).toBe('Document 2');
      await user.keyboard('j');
      expect(shownItem()).toBe('Document 3');
      await user.keyboard('j');
      expect(shownItem()).toBe('Document 3');
      await user.keyboard('k');
      expect(shownItem()).toBe('Document 2');
      expect(dialog().getByText('Item 2 of 3')).toBeVisible();
      expect(stub.callsTo('adminTransactions.review')).toEqual([]);
    });

    it('J goes on to the next page at the end of this one, K comes back to its last item', async () => {
      const items = Array.from({ length: 12 }, (_, i) => queueItem(i + 1));
      const { user } = renderQueue(items);
      await screen.findByText('Document 10');
      await user.click(within(rowOf('Document 10')).getByRole('button', { name: 'Review' }));
      await screen.findByRole('dialog');
      await user.keyboard('j');
      await waitFor(() => expect(shownItem()).toBe('Document 11'));
      expect(dialog().getByText('Item 11 of 12')).toBeVisible();
      await user.keyboard('k');
      await waitFor(() => expect(shownItem()).toBe('Document 10'));
    });

    it('R, the comment and a reason, then Enter: rejected with both, and the next item shows', async () => {
      const { user, stub } = renderQueue([queueItem(1), queueItem(2)]);
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[0] as HTMLElement);
      await screen.findByRole('dialog');
      const reasonsGroup = await dialog().findByRole('group', { name: 'Rejection reasons' });
      await user.keyboard('r');
      expect(dialog().getByRole('textbox', { name: 'Comment' })).toHaveFocus();
      await user.keyboard('Please rescan');
      // Retired reasons are not offered.
      expect(within(reasonsGroup).queryByRole('checkbox', { name: 'An old reason' })).not.toBeInTheDocument();
      await user.click(within(reasonsGroup).getByRole('checkbox', { name: 'Illegible or incomplete scan' }));
      await user.keyboard('{Enter}');
      await waitFor(() => expect(shownItem()).toBe('Document 2'));
      expect(await toast('Document rejected')).toBeVisible();
      expect(stub.callsTo('adminTransactions.review')).toEqual([
        {
          id: uuid(1),
          formId: uuid(101),
          status: 'rejected',
          version: 2,
          text: 'Please rescan',
          reasons: ['illegible'],
        },
      ]);
    });

    it('Ctrl+Enter confirms the rejection', async () => {
      const { user, stub } = renderQueue([queueItem(1), queueItem(2)]);
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[0] as HTMLElement);
      await screen.findByRole('dialog');
      await user.type(
        dialog().getByRole('textbox', { name: 'Comment' }),
        'Wrong house{Control>}{Enter}{/Control}',
      );
      await waitFor(() =>
        expect(stub.callsTo('adminTransactions.review')).toEqual([
          { id: uuid(1), formId: uuid(101), status: 'rejected', version: 2, text: 'Wrong house' },
        ]),
      );
    });

    it('asks for a reason before a rejection with neither reason nor text reaches the server', async () => {
      const { user, stub } = renderQueue([queueItem(1)]);
      await user.click(await screen.findByRole('button', { name: 'Review' }));
      await screen.findByRole('dialog');
      await user.click(dialog().getByRole('button', { name: 'Reject' }));
      expect(dialog().getByText(complianceMessages.rejectionNeedsReason)).toBeVisible();
      expect(stub.callsTo('adminTransactions.review')).toEqual([]);
    });

    it('typing in the comment box is text, not shortcuts', async () => {
      const { user, stub } = renderQueue([queueItem(1), queueItem(2)]);
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[0] as HTMLElement);
      await screen.findByRole('dialog');
      const box = dialog().getByRole('textbox', { name: 'Comment' });
      await user.type(box, 'a jar');
      expect(box).toHaveValue('a jar');
      expect(shownItem()).toBe('Document 1');
      expect(stub.callsTo('adminTransactions.review')).toEqual([]);
    });

    it("shows the server's answer when the decision is refused, and stays on the item", async () => {
      const message = complianceMessages.staleVersion(3);
      const { user } = renderQueue([queueItem(1), queueItem(2)], {
        'adminTransactions.review': () => {
          throw trpcError(409, message);
        },
      });
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[0] as HTMLElement);
      await screen.findByRole('dialog');
      await user.click(dialog().getByRole('button', { name: 'Accept' }));
      expect(await dialog().findByText(message)).toBeVisible();
      expect(shownItem()).toBe('Document 1');
    });

    it('shows a waiver with its reason; A approves it', async () => {
      const { user, stub } = renderQueue([waiverItem(1), queueItem(2)]);
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[0] as HTMLElement);
      await screen.findByRole('dialog');
      expect(dialog().getByText('The buyer waived the inspection in writing')).toBeVisible();
      expect(dialog().getByRole('button', { name: 'Approve' })).toBeVisible();
      expect(dialog().getByRole('button', { name: 'Deny' })).toBeVisible();
      expect(dialog().queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
      expect(dialog().getByTestId('shortcut-legend')).toHaveTextContent('A approve · R deny');
      await user.keyboard('a');
      await waitFor(() => expect(shownItem()).toBe('Document 2'));
      expect(stub.callsTo('adminTransactions.decideWaiver')).toEqual([
        { id: uuid(1), formId: uuid(101), approve: true },
      ]);
      expect(await toast('Waiver approved')).toBeVisible();
    });

    it('denies a waiver with the Deny button and the comment', async () => {
      const { user, stub } = renderQueue([waiverItem(1)]);
      await user.click(await screen.findByRole('button', { name: 'Review' }));
      await screen.findByRole('dialog');
      await user.type(dialog().getByRole('textbox', { name: 'Comment' }), 'Required by the broker');
      await user.click(dialog().getByRole('button', { name: 'Deny' }));
      await waitFor(() =>
        expect(stub.callsTo('adminTransactions.decideWaiver')).toEqual([
          { id: uuid(1), formId: uuid(101), approve: false, text: 'Required by the broker' },
        ]),
      );
    });

    it('closes when the last item is decided, and the page says the queue is empty', async () => {
      const { user } = renderQueue([queueItem(1), queueItem(2)]);
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[1] as HTMLElement);
      await screen.findByRole('dialog');
      expect(shownItem()).toBe('Document 2');
      await user.keyboard('a');
      // The last item of the page went: review carries on with what is left.
      await waitFor(() => expect(shownItem()).toBe('Document 1'));
      await user.keyboard('a');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(await screen.findByText(EMPTY_QUEUE)).toBeVisible();
    });

    it('a refetch of the queue (a live event) keeps the item on screen and what was typed; counts follow', async () => {
      const { user, queryClient, setItems } = renderQueue([queueItem(1), queueItem(2), queueItem(3)]);
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[1] as HTMLElement);
      await screen.findByRole('dialog');
      expect(shownItem()).toBe('Document 2');
      const box = dialog().getByRole('textbox', { name: 'Comment' });
      await user.type(box, 'Half way through');

      // Document 1 was decided elsewhere and Document 4 was uploaded: every place shifts.
      setItems([queueItem(2), queueItem(3), queueItem(4)]);
      await queryClient.invalidateQueries();

      await waitFor(() => expect(screen.getByTestId('pager-summary')).toHaveTextContent('of 3 results'));
      expect(screen.getByText('Document 4', { selector: 'p' })).toBeInTheDocument();
      expect(shownItem()).toBe('Document 2');
      expect(dialog().getByRole('textbox', { name: 'Comment' })).toHaveValue('Half way through');
      expect(dialog().getByText('Item 1 of 3')).toBeVisible();
      // Next and previous go on from where the item now stands.
      await user.click(dialog().getByRole('button', { name: 'Next' }));
      expect(shownItem()).toBe('Document 3');
    });

    it('an item decided elsewhere stays on screen; Next goes to the one that took its place', async () => {
      const { user, queryClient, setItems } = renderQueue([queueItem(1), queueItem(2), queueItem(3)]);
      await user.click((await screen.findAllByRole('button', { name: 'Review' }))[1] as HTMLElement);
      await screen.findByRole('dialog');
      await user.type(dialog().getByRole('textbox', { name: 'Comment' }), 'Looking');

      setItems([queueItem(1), queueItem(3), queueItem(4)]);
      await queryClient.invalidateQueries();

      await waitFor(() =>
        expect(screen.queryByText('Document 2', { selector: 'p' })).not.toBeInTheDocument(),
      );
      expect(shownItem()).toBe('Document 2');
      expect(dialog().getByRole('textbox', { name: 'Comment' })).toHaveValue('Looking');
      await user.click(dialog().getByRole('button', { name: 'Next' }));
      expect(shownItem()).toBe('Document 3');
    });

    it('Escape closes review mode', async () => {
      const { user } = renderQueue([queueItem(1)]);
      await user.click(await screen.findByRole('button', { name: 'Review' }));
      await screen.findByRole('dialog');
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    });
  });
});
