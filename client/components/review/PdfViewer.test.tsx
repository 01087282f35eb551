import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test-utils/render';
import PdfViewer, { documentSource, RANGE_CHUNK_BYTES } from './PdfViewer';

/**
 * pdf.js cannot run in jsdom (no worker, no real canvas), so `pdfjs-dist` is replaced by a fake
 * document of letter-size pages whose drawings finish when the test says: enough to see which
 * pages the viewer draws, at what scale, and which drawings it cancels.
 */
const fake = vi.hoisted(() => {
  type Drawing = { page: number; scale: number; cancel: () => void; cancelled: boolean; finish: () => void };
  const state = {
    pageCount: 40,
    /** Drawings finish at once unless a test holds them. */
    holdDrawings: false,
    failLoading: false,
    drawings: [] as Drawing[],
    pagesAsked: [] as number[],
    destroyed: 0,
  };
  const viewport = (scale: number) => ({ width: 612 * scale, height: 792 * scale });
  const getDocument = (source: unknown) => {
    void source;
    const doc = {
      numPages: state.pageCount,
      getPage: async (page: number) => {
        state.pagesAsked.push(page);
        return {
          getViewport: ({ scale }: { scale: number }) => viewport(scale),
          render: ({ viewport: { width } }: { viewport: { width: number } }) => {
            let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
            const promise = new Promise<void>((resolve, reject) => {
              settle = { resolve, reject };
            });
            const drawing: Drawing = {
              page,
              scale: width / 612,
              cancelled: false,
              cancel: () => {
                drawing.cancelled = true;
                settle?.reject(new Error('Rendering cancelled'));
              },
              finish: () => settle?.resolve(),
            };
            state.drawings.push(drawing);
            if (!state.holdDrawings) drawing.finish();
            return { promise, cancel: drawing.cancel };
          },
        };
      },
    };
    return {
      promise: state.failLoading ? Promise.reject(new Error('Invalid PDF structure')) : Promise.resolve(doc),
      destroy: async () => {
        state.destroyed += 1;
      },
    };
  };
  return { state, getDocument };
});

vi.mock('pdfjs-dist', () => ({
  GlobalWorkerOptions: { workerSrc: '' },
  getDocument: vi.fn(fake.getDocument),
}));
vi.mock('pdfjs-dist/build/pdf.worker.min.mjs?url', () => ({ default: '/assets/pdf.worker.min.mjs' }));

const URL = '/files/transactions/1/scan.pdf?exp=1&sig=abc';

beforeEach(() => {
  Object.assign(fake.state, {
    pageCount: 40,
    holdDrawings: false,
    failLoading: false,
    drawings: [],
    pagesAsked: [],
    destroyed: 0,
  });
});

const renderViewer = () => renderWithProviders(<PdfViewer url={URL} label="Purchase agreement" />);
/** The page drawn on the canvas, once its drawing has finished (a selector: role queries are slow). */
const drawnPage = () => document.querySelector('canvas')?.getAttribute('data-drawn-page');
const lastDrawing = () => fake.state.drawings[fake.state.drawings.length - 1];

describe('PdfViewer', () => {
  it('asks pdf.js for the link itself, in 64 KiB ranges, nothing prefetched, no eval, no cookies', async () => {
    const { getDocument } = await import('pdfjs-dist');
    renderViewer();
    await screen.findByText('Page 1 of 40');
    expect(getDocument).toHaveBeenCalledWith(documentSource(URL));
    expect(documentSource(URL)).toEqual({
      url: URL,
      rangeChunkSize: RANGE_CHUNK_BYTES,
      disableStream: true,
      disableAutoFetch: true,
      isEvalSupported: false,
      withCredentials: false,
    });
    expect(RANGE_CHUNK_BYTES).toBe(65536);
  });

  it('draws page 1 only, and each page only when it is shown', async () => {
    const { user } = renderViewer();
    await waitFor(() => expect(drawnPage()).toBe('1'));
    expect(screen.getByRole('img', { name: 'Purchase agreement, page 1 of 40' })).toBeInTheDocument();
    expect(fake.state.pagesAsked).toEqual([1]);

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('Page 2 of 40')).toBeInTheDocument();
    await waitFor(() => expect(drawnPage()).toBe('2'));
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(drawnPage()).toBe('1'));
    expect(fake.state.pagesAsked).toEqual([1, 2, 1]);
  });

  it('the first and last pages keep their buttons focusable but inert', async () => {
    const { user } = renderViewer();
    await screen.findByText('Page 1 of 40');
    const previous = screen.getByRole('button', { name: 'Previous page' });
    expect(previous).toHaveAttribute('aria-disabled', 'true');
    await user.click(previous);
    expect(screen.getByText('Page 1 of 40')).toBeInTheDocument();

    const field = screen.getByRole('textbox', { name: 'Go to page' });
    await user.clear(field);
    await user.type(field, '40{Enter}');
    expect(screen.getByText('Page 40 of 40')).toBeInTheDocument();
    const next = screen.getByRole('button', { name: 'Next page' });
    expect(next).toHaveAttribute('aria-disabled', 'true');
    await user.click(next);
    expect(screen.getByText('Page 40 of 40')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toHaveAttribute('aria-disabled', 'false');
  });

  it('goes to a page typed in the field (Enter or leaving it); anything else puts the page back', async () => {
    const { user } = renderViewer();
    await screen.findByText('Page 1 of 40');
    const field = screen.getByRole('textbox', { name: 'Go to page' });
    await user.clear(field);
    await user.type(field, '17{Enter}');
    expect(screen.getByText('Page 17 of 40')).toBeInTheDocument();
    await waitFor(() => expect(drawnPage()).toBe('17'));

    await user.clear(field);
    await user.type(field, '99');
    fireEvent.blur(field);
    expect(screen.getByText('Page 40 of 40')).toBeInTheDocument();
    expect(field).toHaveValue('40');

    await user.clear(field);
    await user.type(field, 'two{Enter}');
    expect(screen.getByText('Page 40 of 40')).toBeInTheDocument();
    expect(field).toHaveValue('40');
    // Never more than the pages asked for: 1, 17, 40.
    expect(fake.state.pagesAsked).toEqual([1, 17, 40]);
  });

  it('zooms in and out by steps from the scale shown, fits the width, shows actual size', async () => {
    const { user } = renderViewer();
    await waitFor(() => expect(drawnPage()).toBe('1'));
    // jsdom lays nothing out: a frame 0 px wide fits nothing, so the page is drawn at 100%.
    expect(screen.getByTestId('zoom-percent')).toHaveTextContent('100%');
    expect(screen.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    await waitFor(() => expect(screen.getByTestId('zoom-percent')).toHaveTextContent('125%'));
    expect(lastDrawing()?.scale).toBeCloseTo(1.25);
    expect(lastDrawing()?.page).toBe(1);
    expect(screen.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'false');

    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await waitFor(() => expect(screen.getByTestId('zoom-percent')).toHaveTextContent('75%'));
    expect(lastDrawing()?.scale).toBeCloseTo(0.75);

    await user.click(screen.getByRole('button', { name: 'Actual size' }));
    await waitFor(() => expect(screen.getByTestId('zoom-percent')).toHaveTextContent('100%'));
    expect(screen.getByRole('button', { name: 'Actual size' })).toHaveAttribute('aria-pressed', 'true');
    // The canvas is as large on screen as the page at that scale.
    expect(screen.getByRole('img')).toHaveStyle({ width: '612px', height: '792px' });
  });

  it('a drawing under way is cancelled when the page changes, and that is not a failure', async () => {
    fake.state.holdDrawings = true;
    const { user } = renderViewer();
    await waitFor(() => expect(fake.state.drawings).toHaveLength(1));
    expect(screen.getByLabelText('Loading page 1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(fake.state.drawings).toHaveLength(2));
    expect(fake.state.drawings[0]?.cancelled).toBe(true);
    lastDrawing()?.finish();
    await waitFor(() => expect(drawnPage()).toBe('2'));
    expect(screen.queryByText('The document could not be shown here.')).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Loading/)).not.toBeInTheDocument();
  });

  it('a file pdf.js cannot read: a line and a link to open it', async () => {
    fake.state.failLoading = true;
    renderViewer();
    expect(await screen.findByText('The document could not be shown here.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open' })).toHaveAttribute('href', URL);
  });

  it('a one-page document has no page buttons; closing the viewer ends the document', async () => {
    fake.state.pageCount = 1;
    const { unmount } = renderViewer();
    await screen.findByText('Page 1 of 1');
    expect(screen.queryByRole('button', { name: 'Next page' })).not.toBeInTheDocument();
    unmount();
    expect(fake.state.destroyed).toBe(1);
  });
});
