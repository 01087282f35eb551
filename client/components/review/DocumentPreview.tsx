import { Anchor, Box, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { FIT_WIDTH, shownScale, type Zoom } from './viewer-zoom';
import { ZoomControls } from './ZoomControls';

// pdf.js is large: the viewer and the library load when a PDF is first shown.
const PdfViewer = lazy(() => import('./PdfViewer'));

const IMAGE = /\.(png|jpe?g|gif|webp)$/i;
const PDF = /\.pdf$/i;

export type PreviewKind = 'pdf' | 'image' | 'other';

/** How a file is shown in the page, by its name (the signed link's path ends the same way). */
export function previewKindOf(fileName: string): PreviewKind {
  if (PDF.test(fileName)) return 'pdf';
  if (IMAGE.test(fileName)) return 'image';
  return 'other';
}

type DocumentPreviewProps = { url: string; fileName: string; label: string };

/**
 * The document under review, inside the page: a PDF in the pdf.js viewer, an image with zoom,
 * anything else (DOCX, XLSX) as a line and a link to open it. Used by review mode and by the
 * transaction page's checklist.
 */
export function DocumentPreview({ url, fileName, label }: DocumentPreviewProps) {
  const kind = previewKindOf(fileName);
  return (
    <Box
      role="region"
      aria-label={`Document: ${label}`}
      data-preview={kind}
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
      p="xs"
    >
      {kind === 'pdf' && (
        <Box role="group" aria-label="PDF viewer">
          <Suspense
            fallback={
              <Center py="md">
                <Loader size="sm" aria-label="Loading the viewer" />
              </Center>
            }
          >
            <PdfViewer url={url} label={label} />
          </Suspense>
        </Box>
      )}
      {kind === 'image' && <ImageViewer url={url} alt={`${label} (${fileName})`} />}
      {kind === 'other' && (
        <Stack gap="xs">
          <Text size="sm">{fileName} cannot be shown here.</Text>
          <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm">
            Open
          </Anchor>
        </Stack>
      )}
    </Box>
  );
}

/**
 * An image at the frame's width (never enlarged past its own: a small scan stays sharp) or at a
 * chosen zoom, scrolling inside its frame when larger.
 */
function ImageViewer({ url, alt }: { url: string; alt: string }) {
  const [zoom, setZoom] = useState<Zoom>(FIT_WIDTH);
  /** The image's own width in pixels, known once it has loaded. */
  const [naturalWidth, setNaturalWidth] = useState(0);
  const { ref: frameRef, width: frameWidth } = useElementSize<HTMLDivElement>();
  const fitted = zoom.kind === 'fit-width';
  const shown = fitted ? Math.min(1, shownScale(zoom, frameWidth, naturalWidth)) : zoom.scale;
  return (
    <Stack gap="xs">
      <Group justify="flex-end">
        <ZoomControls zoom={zoom} shown={shown} onChange={setZoom} />
      </Group>
      <Box
        ref={frameRef}
        // Focusable so that an image zoomed past the frame scrolls with the arrow keys.
        tabIndex={0}
        role="group"
        aria-label={`${alt}: image view`}
        style={{ overflow: 'auto', maxHeight: '75vh' }}
      >
        <img
          src={url}
          alt={alt}
          onLoad={(event) => setNaturalWidth(event.currentTarget.naturalWidth)}
          style={{
            display: 'block',
            // Until its size is known, fitting is the browser's own: at most the frame's width.
            width: naturalWidth ? naturalWidth * shown : undefined,
            maxWidth: fitted && !naturalWidth ? '100%' : 'none',
          }}
        />
      </Box>
    </Stack>
  );
}
