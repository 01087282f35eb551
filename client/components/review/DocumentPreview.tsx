import { Anchor, Box, Center, Loader, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';

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
 * The document under review, inside the page: a PDF in the pdf.js viewer, an image as itself,
 * anything else (DOCX, XLSX) as a line and a link to open it.
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
      {kind === 'image' && (
        <img src={url} alt={`${label} (${fileName})`} style={{ maxWidth: '100%', display: 'block' }} />
      )}
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
