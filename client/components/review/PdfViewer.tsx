import { ActionIcon, Anchor, Box, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useElementSize, useMergedRef } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { PDFDocumentLoadingTask, PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { FIT_WIDTH, pageFromEntry, shownScale, type Zoom } from './viewer-zoom';
import { ZoomControls } from './ZoomControls';

type PdfViewerProps = {
  /** Link to the file: /files/... (same origin) or an S3 presigned URL. */
  url: string;
  /** What the document is, for the pages' text alternative. */
  label: string;
  /**
   * Drawn over the page once it is on the canvas (the signing page's fields), positioned from
   * the page's top-left corner: `scale` turns PDF points into CSS pixels, `size` is the page's in
   * points.
   */
  overlay?: (page: { pageNumber: number; scale: number; size: PageSize }) => ReactNode;
};

type PageSize = { width: number; height: number };

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; doc: PDFDocumentProxy };

/**
 * pdf.js asks for the file in parts of this size once the first answer says ranges work
 * (Accept-Ranges: bytes, more than two parts long): a 300-page scan shows its first page after a
 * few parts, not after the whole file.
 */
export const RANGE_CHUNK_BYTES = 64 * 1024;

/**
 * A canvas past this many pixels costs more memory than phones grant one (iOS Safari refuses
 * about 16.7 million): at high zoom the page is drawn at fewer pixels per CSS pixel instead.
 */
const MAX_CANVAS_PIXELS = 16_000_000;

/** What getDocument is given; exported so the test sees the range settings are the ones used. */
export const documentSource = (url: string) => ({
  url,
  rangeChunkSize: RANGE_CHUNK_BYTES,
  // Only the parts the page on screen needs: no streaming of the rest of the file (pdf.js
  // prefetches everything when it streams), no fetching ahead.
  disableStream: true,
  disableAutoFetch: true,
  // The CSP has no 'unsafe-eval'; the links carry their own permission, never a cookie.
  isEvalSupported: false,
  withCredentials: false,
});

/**
 * A PDF drawn one page at a time on a canvas with pdf.js: page navigation (previous, next, go to
 * a page), zoom (steps, fit width, actual size). Only the page on screen is drawn, so a 300-page
 * document costs what one page costs; changing page or zoom cancels a drawing under way. This
 * module (and pdf.js, imported on first use) stays out of the initial bundle: DocumentPreview
 * loads it lazily. No eval, and the worker is a same-origin asset.
 */
export default function PdfViewer({ url, label, overlay }: PdfViewerProps) {
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [pageNumber, setPageNumber] = useState(1);
  const [zoom, setZoom] = useState<Zoom>(FIT_WIDTH);
  /** The scale the page on the canvas was drawn at: the percentage shown, what zooming steps from. */
  const [drawnScale, setDrawnScale] = useState(1);
  /** The drawn page's size in PDF points, as shown (after its rotation). */
  const [drawnSize, setDrawnSize] = useState<PageSize>({ width: 0, height: 0 });
  /** The page whose drawing is on the canvas (null while the first one is drawn). */
  const [drawnPage, setDrawnPage] = useState<number | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const { ref: sizeRef, width: observedWidth } = useElementSize<HTMLDivElement>();
  const mergedFrameRef = useMergedRef(frameRef, sizeRef);

  useEffect(() => {
    let cancelled = false;
    let task: PDFDocumentLoadingTask | null = null;
    setState({ status: 'loading' });
    setPageNumber(1);
    setDrawnPage(null);
    (async () => {
      const pdfjs = await import('pdfjs-dist');
      if (cancelled) return;
      pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
      task = pdfjs.getDocument(documentSource(url));
      const doc = await task.promise;
      if (!cancelled) setState({ status: 'ready', doc });
    })().catch(() => {
      if (!cancelled) setState({ status: 'failed' });
    });
    return () => {
      cancelled = true;
      // Ends the document too, and any request still fetching parts of it.
      void task?.destroy();
    };
  }, [url]);

  const doc = state.status === 'ready' ? state.doc : null;
  // Fitting follows the frame's width (a rotated phone, a resized window); a fixed zoom does not.
  const fitWidth = zoom.kind === 'fit-width' ? observedWidth : 0;
  useEffect(() => {
    if (!doc) return;
    let cancelled = false;
    let task: RenderTask | null = null;
    (async () => {
      const page = await doc.getPage(pageNumber);
      const canvas = canvasRef.current;
      if (cancelled || !canvas) return;
      const natural = page.getViewport({ scale: 1 });
      // Before the first measure (a frame just shown) its laid-out width is already right.
      const frameWidth = fitWidth || frameRef.current?.clientWidth || 0;
      const scale = shownScale(zoom, frameWidth, natural.width);
      const onScreen = page.getViewport({ scale });
      const pixelRatio = Math.min(
        window.devicePixelRatio || 1,
        Math.sqrt(MAX_CANVAS_PIXELS / (onScreen.width * onScreen.height)),
      );
      const viewport = page.getViewport({ scale: scale * pixelRatio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(onScreen.width)}px`;
      canvas.style.height = `${Math.floor(onScreen.height)}px`;
      setDrawnScale(scale);
      setDrawnSize({ width: natural.width, height: natural.height });
      task = page.render({ canvas, viewport });
      await task.promise;
      if (!cancelled) setDrawnPage(pageNumber);
    })().catch(() => {
      // A drawing cancelled because the page or the zoom changed is not a failure.
      if (!cancelled) setState({ status: 'failed' });
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, pageNumber, zoom, fitWidth]);

  if (state.status === 'failed')
    return (
      <Stack gap="xs">
        <Text size="sm">The document could not be shown here.</Text>
        <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm">
          Open
        </Anchor>
      </Stack>
    );
  const pageCount = doc?.numPages ?? 0;
  return (
    <Stack gap="xs">
      {doc && (
        <Group gap="xs" justify="space-between" wrap="wrap">
          {pageCount > 1 ? (
            <PageControls pageNumber={pageNumber} pageCount={pageCount} onChange={setPageNumber} />
          ) : (
            <Text size="xs" c="dimmed">
              Page 1 of 1
            </Text>
          )}
          <ZoomControls zoom={zoom} shown={drawnScale} onChange={setZoom} />
        </Group>
      )}
      <Box pos="relative">
        {drawnPage !== pageNumber && (
          <Loader
            size="sm"
            aria-label={doc ? `Loading page ${pageNumber}` : 'Loading the document'}
            pos="absolute"
            top={8}
            left="50%"
            style={{ zIndex: 1 }}
          />
        )}
        <Box
          ref={mergedFrameRef}
          // Focusable so that a page zoomed past the frame scrolls with the arrow keys.
          tabIndex={0}
          role="group"
          aria-label={`${label}: page view`}
          style={{ overflow: 'auto', maxHeight: '75vh', minHeight: doc ? undefined : 48 }}
        >
          <Box pos="relative" style={{ width: 'fit-content' }}>
            <canvas
              ref={canvasRef}
              role="img"
              aria-label={`${label}, page ${pageNumber}${pageCount ? ` of ${pageCount}` : ''}`}
              data-drawn-page={drawnPage ?? undefined}
              style={{ display: doc ? 'block' : 'none', background: 'white' }}
            />
            {overlay &&
              drawnPage === pageNumber &&
              overlay({ pageNumber, scale: drawnScale, size: drawnSize })}
          </Box>
        </Box>
      </Box>
    </Stack>
  );
}

type PageControlsProps = { pageNumber: number; pageCount: number; onChange: (page: number) => void };

/**
 * Previous, "Page N of M", next, and a field to go to a page (Enter or leaving it). Buttons at
 * the first or last page stay focusable (aria-disabled), as in ZoomControls.
 */
function PageControls({ pageNumber, pageCount, onChange }: PageControlsProps) {
  const [entry, setEntry] = useState(String(pageNumber));
  useEffect(() => setEntry(String(pageNumber)), [pageNumber]);
  const first = pageNumber <= 1;
  const last = pageNumber >= pageCount;
  const goToEntry = () => {
    const page = pageFromEntry(entry, pageCount);
    if (page === null) setEntry(String(pageNumber));
    else {
      setEntry(String(page));
      onChange(page);
    }
  };
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label="Pages">
      <ActionIcon
        variant="default"
        aria-label="Previous page"
        aria-disabled={first}
        data-disabled={first || undefined}
        onClick={() => !first && onChange(pageNumber - 1)}
      >
        <IconChevronLeft size={16} aria-hidden="true" />
      </ActionIcon>
      <Text size="xs" aria-live="polite" style={{ whiteSpace: 'nowrap' }}>
        Page {pageNumber} of {pageCount}
      </Text>
      <ActionIcon
        variant="default"
        aria-label="Next page"
        aria-disabled={last}
        data-disabled={last || undefined}
        onClick={() => !last && onChange(pageNumber + 1)}
      >
        <IconChevronRight size={16} aria-hidden="true" />
      </ActionIcon>
      <TextInput
        size="xs"
        w={56}
        aria-label="Go to page"
        inputMode="numeric"
        value={entry}
        onChange={(event) => setEntry(event.currentTarget.value)}
        onBlur={goToEntry}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            goToEntry();
          }
        }}
      />
    </Group>
  );
}
