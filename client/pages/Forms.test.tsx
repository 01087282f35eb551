import { notifications } from '@mantine/notifications';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alerts, apiMessages, toasts } from '../../shared/messages';
import type { LibraryItem } from '../../shared/schemas/libraries';
import type { UploadAnswer } from '../../shared/schemas/transactions';
import { uploadFile } from '../api/upload';
import { setSession } from '../auth/session';
import { renderWithProviders } from '../test-utils/render';
import { fakeAccessToken } from '../test-utils/tokens';
import { uploadAnswer } from '../test-utils/transactions';
import { deferred, type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { TEST_USER_ID, testProfile } from '../test-utils/users';
import { Forms } from './Library';

vi.mock('../api/upload', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../api/upload')>()),
  uploadFile: vi.fn(),
}));

const purchase: LibraryItem = {
  _id: 'b0000000-0000-4000-8000-000000000001',
  name: 'Purchase Agreement',
  link: '/files/forms/1-purchase.pdf?exp=1&sig=a',
};
const w9: LibraryItem = {
  _id: 'b0000000-0000-4000-8000-000000000002',
  name: 'W-9',
  link: '/files/forms/2-w9.pdf?exp=1&sig=b',
};

const page = (forms: LibraryItem[], total = forms.length) => ({
  forms,
  total,
  pages: Math.max(1, Math.ceil(total / 10)),
});

const answer = uploadAnswer('lease.pdf', {
  key: 'forms/abc-lease.pdf',
  url: '/files/forms/abc-lease.pdf?exp=1&sig=c',
});

function renderForms({
  isOwner = true,
  handlers = {},
}: {
  isOwner?: boolean;
  handlers?: Record<string, StubHandler>;
} = {}) {
  const stub = stubTrpcClient({
    'settings.getUser': () => testProfile({ role: 'admin', isOwner }),
    'libraries.forms.list': () => page([purchase, w9]),
    ...handlers,
  });
  const view = renderWithProviders(<Forms />, { path: '/forms', trpcClient: stub.client });
  return { ...view, stub };
}

const rowOf = (name: string) => {
  const row = screen.getByRole('cell', { name }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return within(row);
};
const toast = (text: string) =>
  screen.findByText(text, {
    selector: '.mantine-Notification-description, .mantine-Notification-description *',
  });
const fileInputOf = (dialog: HTMLElement) => {
  const input = dialog.querySelector('input[type="file"]');
  if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
  return input;
};

beforeEach(() => {
  setSession({ accessToken: fakeAccessToken({ role: 'admin' }), refreshToken: 'r', userId: TEST_USER_ID });
});

afterEach(() => {
  notifications.clean();
  vi.mocked(uploadFile).mockReset();
  vi.restoreAllMocks();
});

describe('Forms library', () => {
  it("lists the forms with a 'Loading...' row first and 'Open' links to a new tab", async () => {
    const list = deferred();
    renderForms({ handlers: { 'libraries.forms.list': () => list.promise } });
    expect(screen.getByRole('heading', { level: 1, name: 'Forms' })).toBeVisible();
    expect(screen.getByRole('cell', { name: 'Loading...' })).toBeVisible();
    list.resolve(page([purchase, w9]));

    expect(await screen.findByRole('cell', { name: 'Purchase Agreement' })).toBeVisible();
    const open = rowOf('Purchase Agreement').getByRole('link', { name: 'Open Purchase Agreement' });
    expect(open).toHaveAttribute('href', purchase.link);
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 1 to 2 of 2 results');
  });

  it('shows Add Forms, Update and Delete to the owner', async () => {
    const { stub } = renderForms({ isOwner: true });
    expect(await screen.findByRole('button', { name: 'Add Forms' })).toBeVisible();
    await screen.findByRole('cell', { name: 'W-9' });
    expect(rowOf('W-9').getByRole('button', { name: 'Update' })).toBeVisible();
    expect(rowOf('W-9').getByRole('button', { name: 'Delete' })).toBeVisible();
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeVisible();
    expect(stub.callsTo('settings.getUser')).toEqual([{ userId: TEST_USER_ID }]);
  });

  it('hides Add Forms, Update and Delete from everyone else', async () => {
    const { queryClient } = renderForms({ isOwner: false });
    await screen.findByRole('cell', { name: 'W-9' });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.queryByRole('button', { name: 'Add Forms' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
  });

  it('asks for a name and a file, with the alert for the missing file', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user, stub } = renderForms();
    await user.click(await screen.findByRole('button', { name: 'Add Forms' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Forms' });
    const inDialog = within(dialog);
    expect(inDialog.getByText('PNG, JPG, GIF up to 10MB')).toBeVisible();

    await user.click(inDialog.getByRole('button', { name: 'Submit' }));
    expect(await inDialog.findByText('Name is required')).toBeVisible();
    expect(inDialog.getByText('File upload is required')).toBeVisible();
    expect(alert).toHaveBeenCalledWith(alerts.pleaseUploadFile);
    expect(stub.callsTo('libraries.forms.create')).toEqual([]);
  });

  it('uploads with a percent, then creates the form with the key and says so', async () => {
    const upload = deferred<UploadAnswer>();
    let report: (percent: number) => void = () => {};
    vi.mocked(uploadFile).mockImplementation((_path, _file, onProgress) => {
      report = onProgress ?? report;
      return upload.promise;
    });
    const { user, stub } = renderForms({
      handlers: {
        'libraries.forms.create': (input) => ({
          _id: 'b0000000-0000-4000-8000-000000000003',
          ...(input as object),
        }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add Forms' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Forms' });
    const inDialog = within(dialog);
    await user.type(inDialog.getByRole('textbox', { name: /^Name/ }), '  Lease Agreement ');
    const file = new File(['%PDF-1.7'], 'lease.pdf', { type: 'application/pdf' });
    await user.upload(fileInputOf(dialog), file);

    expect(vi.mocked(uploadFile)).toHaveBeenCalledWith('/api/uploads/forms', file, expect.any(Function));
    expect(inDialog.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
    act(() => report(42));
    expect(inDialog.getByText('42%')).toBeVisible();
    expect(inDialog.getByRole('button', { name: 'Submit' })).toBeDisabled();

    await act(async () => upload.resolve(answer));
    const shown = await inDialog.findByRole('link', { name: 'lease.pdf' });
    expect(shown).toHaveAttribute('href', answer.url);
    expect(inDialog.queryByRole('progressbar')).not.toBeInTheDocument();

    await user.click(inDialog.getByRole('button', { name: 'Submit' }));
    expect(await toast(toasts.formAdded)).toBeVisible();
    expect(stub.callsTo('libraries.forms.create')).toEqual([{ name: 'Lease Agreement', link: answer.key }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(stub.callsTo('libraries.forms.list')).toHaveLength(2));
  });

  it("says 'Failed to upload file' when the upload fails, and leaves the file unset", async () => {
    vi.spyOn(window, 'alert').mockImplementation(() => {});
    vi.mocked(uploadFile).mockRejectedValue(new TypeError('offline'));
    const { user } = renderForms();
    await user.click(await screen.findByRole('button', { name: 'Add Forms' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Forms' });
    await user.upload(fileInputOf(dialog), new File(['x'], 'scan.png', { type: 'image/png' }));
    // The product's words as the toast's title, the reason below them.
    expect(await screen.findByText(toasts.uploadFailed)).toBeVisible();
    expect(screen.getByText(apiMessages.serviceUnavailable)).toBeVisible();

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Scan');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('File upload is required')).toBeVisible();
  });

  it('updates a form keeping its current file', async () => {
    const { user, stub } = renderForms({
      handlers: {
        'libraries.forms.update': (input) => {
          const { id, ...fields } = input as { id: string; name: string; link: string };
          return { _id: id, ...fields };
        },
      },
    });
    await screen.findByRole('cell', { name: 'W-9' });
    await user.click(rowOf('W-9').getByRole('button', { name: 'Update' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Update Forms' }));
    const name = dialog.getByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('W-9');
    expect(dialog.getByRole('link', { name: 'Current file' })).toHaveAttribute('href', w9.link);
    await user.clear(name);
    await user.type(name, 'Form W-9');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await toast(toasts.formUpdated)).toBeVisible();
    expect(stub.callsTo('libraries.forms.update')).toEqual([{ id: w9._id, name: 'Form W-9', link: w9.link }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("keeps the dialog open with the server's message when saving fails", async () => {
    const { user } = renderForms({
      handlers: {
        'libraries.forms.update': () => {
          throw trpcError(403, 'Only the owner may change the libraries');
        },
      },
    });
    await screen.findByRole('cell', { name: 'W-9' });
    await user.click(rowOf('W-9').getByRole('button', { name: 'Update' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Update Forms' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await toast('Only the owner may change the libraries')).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Update Forms' })).toBeVisible();
  });

  it('deletes after confirmation, with a success toast, and reloads the list', async () => {
    const { user, stub } = renderForms({
      handlers: { 'libraries.forms.delete': () => ({ message: toasts.formDeleted }) },
    });
    await screen.findByRole('cell', { name: 'W-9' });

    await user.click(rowOf('W-9').getByRole('button', { name: 'Delete' }));
    let confirm = within(await screen.findByRole('dialog', { name: 'Delete form' }));
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(stub.callsTo('libraries.forms.delete')).toEqual([]);

    await user.click(rowOf('W-9').getByRole('button', { name: 'Delete' }));
    confirm = within(await screen.findByRole('dialog', { name: 'Delete form' }));
    expect(confirm.getByText(/W-9/)).toBeVisible();
    await user.click(confirm.getByRole('button', { name: 'Delete' }));

    expect(await toast(toasts.formDeleted)).toBeVisible();
    expect(stub.callsTo('libraries.forms.delete')).toEqual([{ id: w9._id }]);
    await waitFor(() => expect(stub.callsTo('libraries.forms.list')).toHaveLength(2));
  });

  it('searches with the trimmed term from page 1, and an empty search reloads the plain list', async () => {
    const { user, stub } = renderForms({
      handlers: {
        'libraries.forms.list': (input) =>
          (input as { page: number }).page === 1 ? page([purchase, w9], 12) : page([w9], 12),
        'libraries.forms.search': () => page([purchase]),
      },
    });
    await screen.findByRole('cell', { name: 'Purchase Agreement' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 11 to 12 of 12 results'),
    );

    await user.type(screen.getByRole('textbox', { name: 'Quick Search' }), '  purchase  ');
    await user.click(screen.getByRole('button', { name: 'search' }));
    expect(await screen.findByRole('cell', { name: 'Purchase Agreement' })).toBeVisible();
    expect(stub.callsTo('libraries.forms.search')).toEqual([{ query: 'purchase', page: 1, limit: 10 }]);
    expect(screen.queryByRole('cell', { name: 'W-9' })).not.toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: 'Quick Search' }));
    await user.click(screen.getByRole('button', { name: 'search' }));
    expect(await screen.findByRole('cell', { name: 'W-9' })).toBeVisible();
    expect(stub.callsTo('libraries.forms.search')).toHaveLength(1);
    expect(stub.calls.filter((call) => call.path.startsWith('libraries.')).at(-1)).toEqual({
      path: 'libraries.forms.list',
      input: { page: 1, limit: 10 },
    });
  });

  it("says when the list failed to load and loads it again on 'Retry'", async () => {
    let failures = 1;
    const { user, stub } = renderForms({
      handlers: {
        'libraries.forms.list': () => {
          if (failures-- > 0) throw trpcError(503, apiMessages.serviceUnavailable);
          return page([purchase]);
        },
      },
    });
    expect(await toast(apiMessages.serviceUnavailable)).toBeVisible();
    expect(screen.getByRole('cell', { name: 'The forms could not be loaded.' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('cell', { name: 'Purchase Agreement' })).toBeVisible();
    expect(stub.callsTo('libraries.forms.list')).toHaveLength(2);
  });
});
