import { Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';

type PdfViewerProps = {
  /** Same-origin link to the file (/files/...). */
  url: string;
  /** What the document is, for the pages' text alternative. */
  label: string;
};

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; doc: PDFDocumentProxy };

/**
 * A PDF drawn page by page on a canvas with pdf.js. This module (and pdf.js, imported on first
 * use) stays out of the initial bundle: the review panel loads it lazily. No eval (the CSP has
 * none), the worker is a same-origin asset, and the bytes come from a same-origin fetch.
 */
export default function PdfViewer({ url, label }: PdfViewerProps) {
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [pageNumber, setPageNumber] = useState(1);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    setState({ status: 'loading' });
    setPageNumber(1);
    (async () => {
      try {
        const pdfjs = await import('pdfjs-dist');
        pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
        const response = await fetch(url, { credentials: 'same-origin' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const data = new Uint8Array(await response.arrayBuffer());
        if (cancelled) return;
        loaded = await pdfjs.getDocument({ data, isEvalSupported: false }).promise;
        if (cancelled) {
          void loaded.destroy();
          return;
        }
        setState({ status: 'ready', doc: loaded });
      } catch {
        if (!cancelled) setState({ status: 'failed' });
      }
    })();
    return () => {
      cancelled = true;
      void loaded?.destroy();
    };
  }, [url]);

  const doc = state.status === 'ready' ? state.doc : null;
  useEffect(() => {
    if (!doc) return;
    let cancelled = false;
    let task: { cancel: () => void; promise: Promise<void> } | null = null;
    (async () => {
      const canvas = canvasRef.current;
      if (!canvas) return;
      const page = await doc.getPage(pageNumber);
      if (cancelled) return;
      const width = frameRef.current?.clientWidth || 800;
      const unscaled = page.getViewport({ scale: 1 });
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (width / unscaled.width) * ratio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
      task = page.render({ canvas, viewport });
      await task.promise.catch(() => {});
    })().catch(() => {
      if (!cancelled) setState({ status: 'failed' });
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, pageNumber]);

  if (state.status === 'failed')
    return (
      <Stack gap="xs">
        <Text size="sm">The document could not be shown here.</Text>
        <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm">
          Open
        </Anchor>
      </Stack>
    );
  const pages = doc?.numPages ?? 0;
  return (
    <Stack gap="xs" ref={frameRef}>
      {state.status === 'loading' && <Loader size="sm" aria-label="Loading the document" />}
      {doc && pages > 1 && (
        <Group gap="xs" justify="space-between">
          <Button
            size="compact-xs"
            variant="default"
            disabled={pageNumber <= 1}
            onClick={() => setPageNumber((n) => n - 1)}
          >
            Previous page
          </Button>
          <Text size="xs" c="dimmed" aria-live="polite">
            Page {pageNumber} of {pages}
          </Text>
          <Button
            size="compact-xs"
            variant="default"
            disabled={pageNumber >= pages}
            onClick={() => setPageNumber((n) => n + 1)}
          >
            Next page
          </Button>
        </Group>
      )}
      <canvas
        ref={canvasRef}
        role="img"
        aria-label={`${label}, page ${pageNumber}${pages ? ` of ${pages}` : ''}`}
        style={{ maxWidth: '100%', display: doc ? 'block' : 'none', background: 'white' }}
      />
    </Stack>
  );
}
