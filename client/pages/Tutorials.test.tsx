import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alerts, toasts } from '../../shared/messages';
import type { LibraryItem } from '../../shared/schemas/libraries';
import { setSession } from '../auth/session';
import { renderWithProviders } from '../test-utils/render';
import { fakeAccessToken } from '../test-utils/tokens';
import { type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { TEST_USER_ID, testProfile } from '../test-utils/users';
import { Tutorials } from './Library';

const intro: LibraryItem = {
  _id: 'c0000000-0000-4000-8000-000000000001',
  name: 'Getting started',
  link: 'https://videos.example.com/intro',
};
const uploads: LibraryItem = {
  _id: 'c0000000-0000-4000-8000-000000000002',
  name: 'Uploading documents',
  link: 'https://videos.example.com/uploads',
};

const page = (tutorials: LibraryItem[], total = tutorials.length) => ({
  tutorials,
  total,
  pages: Math.max(1, Math.ceil(total / 10)),
});

function renderTutorials({
  isOwner = true,
  handlers = {},
}: {
  isOwner?: boolean;
  handlers?: Record<string, StubHandler>;
} = {}) {
  const stub = stubTrpcClient({
    'settings.getUser': () => testProfile({ role: 'admin', isOwner }),
    'libraries.tutorials.list': () => page([intro, uploads]),
    ...handlers,
  });
  const view = renderWithProviders(<Tutorials />, { path: '/tutorials', trpcClient: stub.client });
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

beforeEach(() => {
  setSession({ accessToken: fakeAccessToken({ role: 'admin' }), refreshToken: 'r', userId: TEST_USER_ID });
});

afterEach(() => {
  notifications.clean();
  vi.restoreAllMocks();
});

describe('Tutorials library', () => {
  it("lists the tutorials with 'Open' links to a new tab", async () => {
    const { stub } = renderTutorials({ isOwner: false });
    expect(screen.getByRole('heading', { level: 1, name: 'Tutorials' })).toBeVisible();
    expect(screen.getByRole('cell', { name: 'Loading...' })).toBeVisible();
    expect(await screen.findByRole('cell', { name: 'Getting started' })).toBeVisible();
    const open = rowOf('Getting started').getByRole('link', { name: 'Open Getting started' });
    expect(open).toHaveAttribute('href', intro.link);
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');
    expect(stub.callsTo('libraries.tutorials.list')).toEqual([{ page: 1, limit: 10 }]);
  });

  it('shows Add Tutorials, Update and Delete to the owner only', async () => {
    renderTutorials({ isOwner: true });
    expect(await screen.findByRole('button', { name: 'Add Tutorials' })).toBeVisible();
    await screen.findByRole('cell', { name: 'Getting started' });
    expect(rowOf('Getting started').getByRole('button', { name: 'Update' })).toBeVisible();
    expect(rowOf('Getting started').getByRole('button', { name: 'Delete' })).toBeVisible();
  });

  it('hides Add Tutorials, Update and Delete from everyone else', async () => {
    const { queryClient } = renderTutorials({ isOwner: false });
    await screen.findByRole('cell', { name: 'Getting started' });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.queryByRole('button', { name: 'Add Tutorials' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('validates the name and the link with the product messages', async () => {
    const { user, stub } = renderTutorials();
    await user.click(await screen.findByRole('button', { name: 'Add Tutorials' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Tutorials' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText('Name is required')).toBeVisible();
    expect(dialog.getByText('Link is required')).toBeVisible();

    await user.type(dialog.getByRole('textbox', { name: /^Link/ }), 'ftp://example.com/file');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText('Enter a link starting with http:// or https://')).toBeVisible();
    expect(stub.callsTo('libraries.tutorials.create')).toEqual([]);
  });

  it('adds a tutorial with trimmed values and a success toast', async () => {
    const { user, stub } = renderTutorials({
      handlers: {
        'libraries.tutorials.create': (input) => ({
          _id: 'c0000000-0000-4000-8000-000000000003',
          ...(input as object),
        }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add Tutorials' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Tutorials' }));
    await user.type(dialog.getByRole('textbox', { name: /^Name/ }), ' Reviewing forms ');
    await user.type(dialog.getByRole('textbox', { name: /^Link/ }), 'https://videos.example.com/review ');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await toast(toasts.tutorialAdded)).toBeVisible();
    expect(stub.callsTo('libraries.tutorials.create')).toEqual([
      { name: 'Reviewing forms', link: 'https://videos.example.com/review' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(stub.callsTo('libraries.tutorials.list')).toHaveLength(2));
  });

  it("alerts 'Error submitting tutorial' and keeps the dialog open when saving fails", async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { user } = renderTutorials({
      handlers: {
        'libraries.tutorials.create': () => {
          throw trpcError(409, 'A tutorial with that name exists');
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add Tutorials' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Tutorials' }));
    await user.type(dialog.getByRole('textbox', { name: /^Name/ }), 'Getting started');
    await user.type(dialog.getByRole('textbox', { name: /^Link/ }), 'https://videos.example.com/intro');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(alert).toHaveBeenCalledWith(alerts.tutorialSubmitError));
    expect(screen.getByRole('dialog', { name: 'Add Tutorials' })).toBeVisible();
  });

  it('updates a tutorial from its row', async () => {
    const { user, stub } = renderTutorials({
      handlers: {
        'libraries.tutorials.update': (input) => {
          const { id, ...fields } = input as { id: string; name: string; link: string };
          return { _id: id, ...fields };
        },
      },
    });
    await screen.findByRole('cell', { name: 'Uploading documents' });
    await user.click(rowOf('Uploading documents').getByRole('button', { name: 'Update' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Update Tutorials' }));
    const link = dialog.getByRole('textbox', { name: /^Link/ });
    expect(dialog.getByRole('textbox', { name: /^Name/ })).toHaveValue('Uploading documents');
    expect(link).toHaveValue(uploads.link);
    await user.clear(link);
    await user.type(link, 'https://videos.example.com/uploads-v2');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));

    expect(await toast('Tutorial updated successfully')).toBeVisible();
    expect(stub.callsTo('libraries.tutorials.update')).toEqual([
      { id: uploads._id, name: 'Uploading documents', link: 'https://videos.example.com/uploads-v2' },
    ]);
  });

  it('deletes after confirmation with a success toast', async () => {
    const { user, stub } = renderTutorials({
      handlers: { 'libraries.tutorials.delete': () => ({ message: toasts.tutorialDeleted }) },
    });
    await screen.findByRole('cell', { name: 'Getting started' });
    await user.click(rowOf('Getting started').getByRole('button', { name: 'Delete' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Delete tutorial' }));
    expect(stub.callsTo('libraries.tutorials.delete')).toEqual([]);
    await user.click(confirm.getByRole('button', { name: 'Delete' }));

    expect(await toast(toasts.tutorialDeleted)).toBeVisible();
    expect(stub.callsTo('libraries.tutorials.delete')).toEqual([{ id: intro._id }]);
    await waitFor(() => expect(stub.callsTo('libraries.tutorials.list')).toHaveLength(2));
  });

  it('searches with the trimmed term from page 1', async () => {
    const { user, stub } = renderTutorials({
      handlers: {
        'libraries.tutorials.list': (input) =>
          (input as { page: number }).page === 1 ? page([intro, uploads], 11) : page([uploads], 11),
        'libraries.tutorials.search': () => page([intro]),
      },
    });
    await screen.findByRole('cell', { name: 'Getting started' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(screen.getByTestId('pager-summary')).toHaveTextContent('Showing 11 to 11 of 11 results'),
    );
    await user.type(screen.getByRole('textbox', { name: 'Quick Search' }), ' started ');
    await user.click(screen.getByRole('button', { name: 'search' }));
    expect(await screen.findByRole('cell', { name: 'Getting started' })).toBeVisible();
    expect(stub.callsTo('libraries.tutorials.search')).toEqual([{ query: 'started', page: 1, limit: 10 }]);
  });
});
