import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReviewQueueItem } from '../../../shared/schemas/compliance';
import { renderWithProviders } from '../../test-utils/render';
import { queueItem, reasons, waiverItem } from '../../test-utils/review-queue';
import { signInAs } from '../../test-utils/transactions';
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
  });
  return renderWithProviders(
    <ReviewPanel
      opened
      item={item}
      position={1}
      total={1}
      hasPrevious={false}
      hasNext={false}
      onPrevious={() => {}}
      onNext={() => {}}
      onClose={() => {}}
      onDecided={() => {}}
    />,
    { path: '/admin/review', trpcClient: stub.client },
  );
}

const withFile = (overrides: Partial<ReviewQueueItem['form']>) => {
  const item = queueItem(1);
  return { ...item, form: { ...item.form, ...overrides } };
};

const item1Url = queueItem(1).form.url ?? '';

beforeEach(() => signInAs('admin'));

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
