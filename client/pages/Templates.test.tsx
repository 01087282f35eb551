import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiMessages, toasts, ui, validation } from '../../shared/messages';
import type { Template } from '../../shared/schemas/templates';
import { setSession } from '../auth/session';
import { renderWithProviders } from '../test-utils/render';
import { fakeAccessToken } from '../test-utils/tokens';
import { deferred, type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { Templates } from './Templates';

const ADMIN_ID = 'f3a1c2d4-0000-4000-8000-000000000001';

function profile(isOwner: boolean) {
  return {
    _id: ADMIN_ID,
    firstName: 'Olive',
    lastName: 'Owner',
    company: 'Acme Realty',
    email: 'olive@example.com',
    phoneNumber: '+1 555 0100',
    role: 'admin',
    isAdminApproved: true,
    isEmailVerified: true,
    isOwner,
    createdAt: '2025-01-01T00:00:00.000Z',
  };
}

const lease: Template = {
  _id: 'a0000000-0000-4000-8000-000000000001',
  type: 'Lease',
  role: 'Landlord',
  forms: ['Lease Agreement', 'Agency Disclosure'],
  optionalForms: [],
  keyDateKinds: [],
  conditionalForms: [],
};
const listing: Template = {
  _id: 'a0000000-0000-4000-8000-000000000002',
  type: 'Listing',
  role: 'Seller',
  forms: ['Listing Agreement', 'Seller Disclosure', 'Lead Paint Disclosure', 'Title Report', 'Wire Advisory'],
  optionalForms: [],
  keyDateKinds: [],
  conditionalForms: [],
};

const listAnswer = (data: Template[], totalItems = data.length) => ({
  data,
  totalItems,
  totalPages: Math.max(1, Math.ceil(totalItems / 10)),
});

type Handlers = Record<string, StubHandler>;

function renderTemplates({ isOwner = true, handlers = {} }: { isOwner?: boolean; handlers?: Handlers } = {}) {
  const stub = stubTrpcClient({
    'settings.getUser': () => profile(isOwner),
    'templates.list': () => listAnswer([lease, listing]),
    'templates.all': () => [lease, listing],
    ...handlers,
  });
  const view = renderWithProviders(<Templates />, {
    path: '/admin/forms/transactions/view',
    trpcClient: stub.client,
  });
  return { ...view, stub };
}

const rowOf = (type: string) => {
  const cell = screen.getByRole('cell', { name: type });
  const row = cell.closest('tr');
  if (!row) throw new Error(`no row for ${type}`);
  return within(row);
};
const bodyRows = () => {
  const [, body] = screen.getAllByRole('rowgroup');
  return within(body as HTMLElement).getAllByRole('row');
};
const pagerSummary = () => screen.getByTestId('pager-summary');
const toast = (text: string) =>
  screen.findByText(text, {
    selector: '.mantine-Notification-description, .mantine-Notification-description *',
  });
const toastColor = (element: HTMLElement) =>
  (element.closest('.mantine-Notification-root') as HTMLElement | null)?.style.getPropertyValue(
    '--notification-color',
  );

beforeEach(() => {
  setSession({
    accessToken: fakeAccessToken({ sub: ADMIN_ID, role: 'admin' }),
    refreshToken: 'stored-refresh',
    userId: ADMIN_ID,
  });
});

afterEach(() => {
  // The toast store is global to the module; one test's toasts must not leak into the next.
  notifications.clean();
});

describe('Templates page', () => {
  it("shows a single 'Loading...' row, then the templates with their columns", async () => {
    const answer = deferred();
    const { stub } = renderTemplates({ handlers: { 'templates.list': () => answer.promise } });
    expect(screen.getByRole('heading', { level: 1, name: 'Transactions Forms' })).toBeVisible();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Type',
      'Role',
      'Documents',
      'Actions',
    ]);
    const rows = bodyRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent(/^Loading\.\.\.$/);

    answer.resolve(listAnswer([lease, listing]));
    expect(await screen.findByRole('cell', { name: 'Listing' })).toBeVisible();
    expect(bodyRows()).toHaveLength(2);
    expect(rowOf('Lease').getByRole('cell', { name: 'Landlord' })).toBeVisible();
    // Update and Delete for every admin, not only the owner.
    for (const type of ['Lease', 'Listing']) {
      expect(rowOf(type).getByRole('button', { name: 'Update' })).toBeVisible();
      expect(rowOf(type).getByRole('button', { name: 'Delete' })).toBeVisible();
    }
    expect(stub.callsTo('templates.list')).toEqual([{ page: 1, limit: 10 }]);
  });

  it("shows two documents and 'See more' only beyond two; the list opens with every name and closes", async () => {
    const { user } = renderTemplates();
    await screen.findByRole('cell', { name: 'Listing' });

    expect(rowOf('Lease').getByText('Lease Agreement')).toBeVisible();
    expect(rowOf('Lease').getByText('Agency Disclosure')).toBeVisible();
    expect(rowOf('Lease').queryByRole('button', { name: 'See more' })).not.toBeInTheDocument();

    expect(rowOf('Listing').getByText('Listing Agreement')).toBeVisible();
    expect(rowOf('Listing').getByText('Seller Disclosure')).toBeVisible();
    expect(rowOf('Listing').queryByText('Lead Paint Disclosure')).not.toBeInTheDocument();

    await user.click(rowOf('Listing').getByRole('button', { name: 'See more' }));
    const dialog = await screen.findByRole('dialog', { name: 'Documents List (5)' });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(listing.forms);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows 'Add Transactions Forms' to the owner", async () => {
    const { stub } = renderTemplates({ isOwner: true });
    expect(await screen.findByRole('button', { name: 'Add Transactions Forms' })).toBeVisible();
    expect(stub.callsTo('settings.getUser')).toEqual([{ userId: ADMIN_ID }]);
  });

  it("hides 'Add Transactions Forms' from other admins", async () => {
    const { stub, queryClient } = renderTemplates({ isOwner: false });
    await screen.findByRole('cell', { name: 'Listing' });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(stub.callsTo('settings.getUser')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Add Transactions Forms' })).not.toBeInTheDocument();
  });

  it('validates the add dialog with the product messages, and Add appends a document field', async () => {
    const { user, stub } = renderTemplates();
    await user.click(await screen.findByRole('button', { name: 'Add Transactions Forms' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Transactions Forms' }));

    expect(dialog.getByText(validation.roleHint)).toBeVisible();
    expect(dialog.getByText('If empty then add "-" to continue')).toBeVisible();
    expect(dialog.getAllByRole('textbox', { name: /^Document \d/ })).toHaveLength(1);
    // The only field cannot be removed.
    expect(dialog.queryByRole('button', { name: /^Remove document/ })).not.toBeInTheDocument();

    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText('Type is required')).toBeVisible();
    expect(dialog.getByText('Role is required')).toBeVisible();
    expect(dialog.getAllByText('Document name is required')).toHaveLength(1);

    await user.click(dialog.getByRole('button', { name: 'Add' }));
    expect(dialog.getAllByRole('textbox', { name: /^Document \d/ })).toHaveLength(2);
    await user.type(dialog.getByRole('textbox', { name: /^Document 1/ }), 'Purchase Agreement');
    // Blank is empty: spaces alone do not name a document.
    await user.type(dialog.getByRole('textbox', { name: /^Document 2/ }), '   ');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(dialog.getAllByText('Document name is required')).toHaveLength(1));
    expect(dialog.getByRole('textbox', { name: /^Document 2/ })).toHaveAttribute('aria-invalid', 'true');
    expect(dialog.getByRole('textbox', { name: /^Document 1/ })).not.toHaveAttribute('aria-invalid', 'true');

    expect(stub.callsTo('templates.create')).toEqual([]);
  });

  it('adds a template: trimmed values, documents as strings, a success toast, the dialog closed, the list reloaded', async () => {
    const { user, stub } = renderTemplates({
      handlers: {
        'templates.create': (input) => ({
          _id: 'a0000000-0000-4000-8000-000000000003',
          ...(input as object),
        }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add Transactions Forms' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Transactions Forms' }));
    await user.type(dialog.getByRole('combobox', { name: /^Type/ }), '  Referral ');
    // A new type is added explicitly.
    await user.click(await screen.findByRole('option', { name: '+ Create type "Referral"' }));
    await user.type(dialog.getByRole('textbox', { name: /^Role/ }), '-');
    await user.type(dialog.getByRole('textbox', { name: /^Document 1/ }), 'Referral Agreement ');
    await user.click(dialog.getByRole('button', { name: 'Add' }));
    await user.type(dialog.getByRole('textbox', { name: /^Document 2/ }), 'W-9');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await toast(toasts.documentAdded)).toBeVisible();
    expect(screen.getByText('Document added successfully')).toBeVisible();
    expect(stub.callsTo('templates.create')).toEqual([
      {
        type: 'Referral',
        role: '-',
        forms: ['Referral Agreement', 'W-9'],
        optionalForms: [],
        keyDateKinds: [],
        conditionalForms: [],
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(stub.callsTo('templates.list')).toHaveLength(2));
  });

  it('offers the existing types, takes a case variant as the existing type, and adds a new one only when asked', async () => {
    const { user, stub } = renderTemplates({
      handlers: {
        'templates.create': (input) => ({
          _id: 'a0000000-0000-4000-8000-000000000004',
          ...(input as object),
        }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add Transactions Forms' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Transactions Forms' }));
    const typeField = dialog.getByRole('combobox', { name: /^Type/ });

    await user.click(typeField);
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Lease', 'Listing']),
    );
    // A typo is not a new type until "Create type" is chosen: left alone, the field goes back.
    await user.type(typeField, 'Lisitng');
    expect(screen.getByRole('option', { name: '+ Create type "Lisitng"' })).toBeVisible();
    await user.click(dialog.getByRole('textbox', { name: /^Role/ }));
    expect(typeField).toHaveValue('');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText('Type is required')).toBeVisible();

    // Another case of an existing type is that type: no "Create" offered, and its spelling is kept.
    await user.type(typeField, 'listing ');
    expect(screen.queryByRole('option', { name: /Create type/ })).not.toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Listing' })).toBeVisible();
    await user.click(dialog.getByRole('textbox', { name: /^Role/ }));
    expect(typeField).toHaveValue('Listing');

    await user.type(dialog.getByRole('textbox', { name: /^Role/ }), 'Buyer');
    await user.type(dialog.getByRole('textbox', { name: /^Document 1/ }), 'Offer');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(stub.callsTo('templates.create')).toEqual([
        {
          type: 'Listing',
          role: 'Buyer',
          forms: ['Offer'],
          optionalForms: [],
          keyDateKinds: [],
          conditionalForms: [],
        },
      ]),
    );
  });

  it("closes the add dialog and shows the server's message when the template exists", async () => {
    const message = 'A template for Lease / Landlord already exists';
    const { user } = renderTemplates({
      handlers: {
        'templates.create': () => {
          throw trpcError(409, message);
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add Transactions Forms' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Transactions Forms' }));
    await user.type(dialog.getByRole('combobox', { name: /^Type/ }), 'Lease');
    await user.type(dialog.getByRole('textbox', { name: /^Role/ }), 'Landlord');
    await user.type(dialog.getByRole('textbox', { name: /^Document 1/ }), 'Lease Agreement');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    const shown = await toast(message);
    expect(toastColor(shown)).toContain('red');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('prefills the update dialog from the row, removes a field, and sends the names as forms', async () => {
    const { user, stub } = renderTemplates({
      handlers: {
        'templates.update': (input) => {
          const { id, ...fields } = input as { id: string; type: string; role: string; forms: string[] };
          return { _id: id, ...fields };
        },
      },
    });
    await screen.findByRole('cell', { name: 'Listing' });
    await user.click(rowOf('Listing').getByRole('button', { name: 'Update' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Update Transactions Forms' }));

    expect(dialog.getByRole('combobox', { name: /^Type/ })).toHaveValue('Listing');
    expect(dialog.getByRole('textbox', { name: /^Role/ })).toHaveValue('Seller');
    const documentValues = () =>
      dialog
        .getAllByRole('textbox', { name: /^Document \d/ })
        .map((input) => (input as HTMLInputElement).value);
    expect(documentValues()).toEqual(listing.forms);

    await user.click(dialog.getByRole('button', { name: 'Remove document 2' }));
    expect(documentValues()).toEqual([
      'Listing Agreement',
      'Lead Paint Disclosure',
      'Title Report',
      'Wire Advisory',
    ]);
    await user.clear(dialog.getByRole('textbox', { name: /^Document 4/ }));
    await user.type(dialog.getByRole('textbox', { name: /^Document 4/ }), 'Wire Fraud Advisory');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await toast(toasts.documentUpdated)).toBeVisible();
    expect(stub.callsTo('templates.update')).toEqual([
      {
        id: listing._id,
        type: 'Listing',
        role: 'Seller',
        forms: ['Listing Agreement', 'Lead Paint Disclosure', 'Title Report', 'Wire Fraud Advisory'],
        optionalForms: [],
        keyDateKinds: [],
        conditionalForms: [],
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('edits the optional documents beside the required ones and sends them as optionalForms', async () => {
    const withOptional: Template = { ...lease, optionalForms: ['Pet Addendum', 'Parking Agreement'] };
    const { user, stub } = renderTemplates({
      handlers: {
        'templates.list': () => listAnswer([withOptional, listing]),
        'templates.update': (input) => {
          const { id, ...fields } = input as Template & { id: string };
          return { ...fields, _id: id };
        },
      },
    });
    await screen.findByRole('cell', { name: 'Lease' });
    // The table marks them optional; they count towards 'See more'.
    expect(rowOf('Lease').getByRole('button', { name: ui.seeMore })).toBeVisible();
    await user.click(rowOf('Lease').getByRole('button', { name: ui.seeMore }));
    const list = within(await screen.findByRole('dialog', { name: 'Documents List (4)' }));
    expect(list.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Lease Agreement',
      'Agency Disclosure',
      'Pet Addendum (optional)',
      'Parking Agreement (optional)',
    ]);
    await user.click(list.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(rowOf('Lease').getByRole('button', { name: 'Update' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Update Transactions Forms' }));
    const optionalValues = () =>
      dialog
        .queryAllByRole('textbox', { name: /^Optional document \d/ })
        .map((input) => (input as HTMLInputElement).value);
    expect(optionalValues()).toEqual(['Pet Addendum', 'Parking Agreement']);
    // The required list is its own.
    expect(dialog.getAllByRole('textbox', { name: /^Document \d/ })).toHaveLength(2);

    await user.click(dialog.getByRole('button', { name: 'Remove optional document 1' }));
    expect(optionalValues()).toEqual(['Parking Agreement']);
    await user.click(dialog.getByRole('button', { name: 'Add optional document' }));
    // A name in both lists is refused on the optional field.
    await user.type(dialog.getByRole('textbox', { name: /^Optional document 2/ }), 'lease agreement');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText('"lease agreement" cannot be both required and optional')).toBeVisible();
    expect(stub.callsTo('templates.update')).toEqual([]);

    await user.clear(dialog.getByRole('textbox', { name: /^Optional document 2/ }));
    await user.type(dialog.getByRole('textbox', { name: /^Optional document 2/ }), ' HOA Rules ');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await toast(toasts.documentUpdated)).toBeVisible();
    expect(stub.callsTo('templates.update')).toEqual([
      {
        id: lease._id,
        type: 'Lease',
        role: 'Landlord',
        forms: ['Lease Agreement', 'Agency Disclosure'],
        optionalForms: ['Parking Agreement', 'HOA Rules'],
        keyDateKinds: [],
        conditionalForms: [],
      },
    ]);
  });

  it('offers no remove button on the last remaining document, and a new opening starts afresh', async () => {
    const { user } = renderTemplates();
    await screen.findByRole('cell', { name: 'Lease' });
    await user.click(rowOf('Lease').getByRole('button', { name: 'Update' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Update Transactions Forms' }));
    await user.click(dialog.getByRole('button', { name: 'Remove document 1' }));
    expect(dialog.getAllByRole('textbox', { name: /^Document \d/ })).toHaveLength(1);
    expect(dialog.getByRole('textbox', { name: /^Document 1/ })).toHaveValue('Agency Disclosure');
    expect(dialog.queryByRole('button', { name: /^Remove document/ })).not.toBeInTheDocument();

    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Add Transactions Forms' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Add Transactions Forms' }));
    expect(dialog.getByRole('combobox', { name: /^Type/ })).toHaveValue('');
    expect(dialog.getAllByRole('textbox', { name: /^Document \d/ })).toHaveLength(1);
    expect(dialog.getByRole('textbox', { name: /^Document 1/ })).toHaveValue('');
  });

  it("closes the update dialog with 'Something went wrong' when the failure has no server message", async () => {
    const { user } = renderTemplates({
      handlers: {
        'templates.update': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    await screen.findByRole('cell', { name: 'Lease' });
    await user.click(rowOf('Lease').getByRole('button', { name: 'Update' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Update Transactions Forms' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    const shown = await toast(toasts.somethingWentWrong);
    expect(shown).toHaveTextContent('Something went wrong');
    expect(toastColor(shown)).toContain('red');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows the server's message when an update is refused", async () => {
    const { user } = renderTemplates({
      handlers: {
        'templates.update': () => {
          throw trpcError(409, 'A template for Lease / Landlord already exists');
        },
      },
    });
    await screen.findByRole('cell', { name: 'Listing' });
    await user.click(rowOf('Listing').getByRole('button', { name: 'Update' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Update Transactions Forms' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await toast('A template for Lease / Landlord already exists')).toBeVisible();
  });

  it('deletes after confirmation, with a success toast, and reloads the list', async () => {
    const { user, stub } = renderTemplates({
      handlers: { 'templates.delete': () => ({ message: toasts.templateDeleted }) },
    });
    await screen.findByRole('cell', { name: 'Lease' });

    await user.click(rowOf('Lease').getByRole('button', { name: 'Delete' }));
    let confirm = within(await screen.findByRole('dialog', { name: 'Delete template' }));
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(stub.callsTo('templates.delete')).toEqual([]);

    await user.click(rowOf('Lease').getByRole('button', { name: 'Delete' }));
    confirm = within(await screen.findByRole('dialog', { name: 'Delete template' }));
    expect(confirm.getByText(/Lease \/ Landlord/)).toBeVisible();
    await user.click(confirm.getByRole('button', { name: 'Delete' }));

    const shown = await toast('Template deleted successfully');
    expect(toastColor(shown)).toContain('green');
    expect(stub.callsTo('templates.delete')).toEqual([{ id: lease._id }]);
    await waitFor(() => expect(stub.callsTo('templates.list')).toHaveLength(2));
  });

  it('searches with the trimmed term from page 1, and an empty search reloads the plain list', async () => {
    const { user, stub } = renderTemplates({
      handlers: {
        'templates.list': (input) =>
          (input as { page: number }).page === 1
            ? listAnswer([lease, listing], 12)
            : listAnswer([listing], 12),
        'templates.search': () => ({ forms: [lease], pages: 1, total: 1 }),
      },
    });
    await screen.findByRole('cell', { name: 'Lease' });
    expect(pagerSummary()).toHaveTextContent('Showing 1 to 10 of 12 results');

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(pagerSummary()).toHaveTextContent('Showing 11 to 12 of 12 results'));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Lease' })).not.toBeInTheDocument());
    expect(stub.callsTo('templates.list')).toEqual([
      { page: 1, limit: 10 },
      { page: 2, limit: 10 },
    ]);

    await user.type(screen.getByRole('textbox', { name: 'Quick Search' }), '  Lease  ');
    await user.click(screen.getByRole('button', { name: 'search' }));
    expect(await screen.findByRole('cell', { name: 'Lease' })).toBeVisible();
    expect(stub.callsTo('templates.search')).toEqual([{ query: 'Lease', page: 1, limit: 10 }]);
    expect(pagerSummary()).toHaveTextContent('Showing 1 to 1 of 1 results');
    expect(screen.queryByRole('cell', { name: 'Listing' })).not.toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: 'Quick Search' }));
    await user.type(screen.getByRole('textbox', { name: 'Quick Search' }), '   ');
    await user.click(screen.getByRole('button', { name: 'search' }));
    expect(await screen.findByRole('cell', { name: 'Listing' })).toBeVisible();
    expect(pagerSummary()).toHaveTextContent('Showing 1 to 10 of 12 results');
    // The blank term never reaches the search procedure.
    expect(stub.callsTo('templates.search')).toHaveLength(1);
    expect(stub.calls.filter((call) => call.path.startsWith('templates.')).at(-1)).toEqual({
      path: 'templates.list',
      input: { page: 1, limit: 10 },
    });
  });

  it("says when the list failed to load and loads it again on 'Retry'", async () => {
    let failures = 1;
    const { user, stub } = renderTemplates({
      handlers: {
        'templates.list': () => {
          if (failures-- > 0) throw trpcError(503, apiMessages.serviceUnavailable);
          return listAnswer([lease]);
        },
      },
    });
    const shown = await toast(apiMessages.serviceUnavailable);
    expect(toastColor(shown)).toContain('red');
    expect(screen.getByText('The templates could not be loaded.', { selector: 'td' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('cell', { name: 'Lease' })).toBeVisible();
    expect(stub.callsTo('templates.list')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument());
  });

  it("keeps a template's key date kinds and sends the ones chosen in 'Key dates'", async () => {
    const withDates: Template = { ...listing, keyDateKinds: ['inspection'] };
    const { user, stub } = renderTemplates({
      handlers: {
        'templates.list': () => listAnswer([lease, withDates]),
        'templates.update': (input) => {
          const { id, ...fields } = input as Omit<Template, '_id'> & { id: string };
          return { _id: id, ...fields };
        },
      },
    });
    await screen.findByRole('cell', { name: 'Listing' });
    await user.click(rowOf('Listing').getByRole('button', { name: 'Update' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Update Transactions Forms' }));
    const kinds = dialog
      .getAllByLabelText(/^Key dates/)
      .find((element) => element instanceof HTMLInputElement && element.type !== 'hidden');
    if (!kinds) throw new Error('the Key dates input is missing');
    expect(dialog.getByText('Inspection deadline')).toBeVisible();
    await user.click(kinds);
    await user.click(await dialog.findByRole('option', { name: 'Closing' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await toast(toasts.documentUpdated)).toBeVisible();
    expect(stub.callsTo('templates.update')).toEqual([
      {
        id: listing._id,
        type: 'Listing',
        role: 'Seller',
        forms: listing.forms,
        optionalForms: [],
        keyDateKinds: ['inspection', 'closing'],
        conditionalForms: [],
      },
    ]);
  });
});
