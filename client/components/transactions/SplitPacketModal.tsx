import { Alert, Box, Button, Group, Image, Loader, Modal, Paper, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { formatPageList } from '../../../shared/intake/pages';
import { proposeRanges } from '../../../shared/intake/suggestions';
import type { Transaction } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { PHONE_QUERY } from '../../breakpoints';
import { notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { openPacketPdf, type PacketPdf } from './packet-pdf';
import {
  pagesOf,
  rangesFromProposal,
  type SplitAction,
  type SplitRange,
  splitParts,
  splitReducer,
} from './split-ranges';

/** The uploaded packet: the upload answer's key, link, name and page count. */
export type Packet = { key: string; url: string; name: string; pages: number };

type SplitPacketModalProps = {
  transaction: Transaction;
  packet: Packet;
  onClose: () => void;
  /** The packet's parts are attached: the page reloads the checklist. */
  onSplit: () => unknown;
};

const LEAVE_OUT = 'leave-out';
const THUMBNAIL_WIDTH = 96;
// A Letter page's proportions, so the grid does not jump as thumbnails arrive.
const THUMBNAIL_HEIGHT = Math.round((THUMBNAIL_WIDTH * 11) / 8.5);

/**
 * The packet splitter: a scanned stack of documents, cut into one file per
 * checklist item. pdf.js reads each page's text in the browser and shared/intake/suggestions.ts
 * proposes where each document starts and which item it is; the agent checks the proposal against
 * the thumbnails, cuts, merges and reassigns, and the server cuts the PDF. Loaded on demand, with
 * pdf.js.
 */
export default function SplitPacketModal({ transaction, packet, onClose, onSplit }: SplitPacketModalProps) {
  const trpc = useTRPC();
  const split = useMutation(trpc.transactions.split.mutationOptions());
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  // The checklist as it was when the packet arrived: a reload of the page must not re-read the PDF.
  const [checklist] = useState(() =>
    transaction.forms.map((form) => ({ formId: form._id, label: form.label })),
  );
  const [pdf, setPdf] = useState<PacketPdf | null>(null);
  /** What went wrong reading the packet; the agent can still split it by page numbers. */
  const [readFailure, setReadFailure] = useState<string | null>(null);
  const [ranges, setRanges] = useState<SplitRange[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let opened: PacketPdf | null = null;
    // Without a proposal, one range of every page to cut from.
    const unproposed = (failure: string) => {
      if (cancelled) return;
      setReadFailure(failure);
      setRanges([{ first: 1, last: packet.pages, formId: null }]);
    };
    (async () => {
      try {
        opened = await openPacketPdf(packet.url);
      } catch {
        return unproposed('The pages could not be shown here: split them by their numbers.');
      }
      if (cancelled) return opened.close();
      setPdf(opened);
      try {
        const texts = await opened.readPageTexts();
        if (!cancelled) setRanges(rangesFromProposal(proposeRanges(texts, checklist)));
      } catch {
        unproposed("The pages' text could not be read: choose each document's item yourself.");
      }
    })();
    return () => {
      cancelled = true;
      opened?.close();
    };
  }, [packet.url, packet.pages, checklist]);

  const dispatch = (action: SplitAction) => setRanges((current) => current && splitReducer(current, action));
  const parts = ranges ? splitParts(ranges) : [];
  const leftOut = (ranges ?? []).filter((range) => range.formId === null).flatMap(pagesOf);
  const options = [
    { value: LEAVE_OUT, label: 'Leave out' },
    ...checklist.map((item) => ({ value: item.formId, label: item.label })),
  ];

  const submit = async () => {
    setError(null);
    try {
      await split.mutateAsync({ id: transaction._id, key: packet.key, parts });
    } catch (failure) {
      setError(serverMessageOf(failure));
      return;
    }
    notifySuccess(`Packet split into ${parts.length} document${parts.length === 1 ? '' : 's'}`);
    onClose();
    await onSplit();
  };

  return (
    <Modal
      opened
      onClose={() => {
        if (!split.isPending) onClose();
      }}
      title={`Split ${packet.name} (${packet.pages} pages)`}
      fullScreen={phone}
      size="xl"
    >
      <Stack gap="sm">
        <Text size="sm">
          Each document below becomes a new version of the item you choose. Start a new document at any page,
          or merge one into the document before it.
        </Text>
        {readFailure && <Alert color="yellow">{readFailure}</Alert>}
        {ranges === null ? (
          <Group gap="xs">
            <Loader size="sm" aria-hidden="true" />
            <Text size="sm" role="status">
              Reading the pages...
            </Text>
          </Group>
        ) : (
          ranges.map((range, index) => (
            <RangeCard
              key={range.first}
              range={range}
              index={index}
              pdf={pdf}
              options={options}
              disabled={split.isPending}
              dispatch={dispatch}
            />
          ))
        )}
        {leftOut.length > 0 && (
          <Text
            size="sm"
            c="dimmed"
          >{`Left out: ${leftOut.length === 1 ? 'page' : 'pages'} ${formatPageList(leftOut)}`}</Text>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={split.isPending}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} disabled={parts.length === 0} loading={split.isPending}>
            Split
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

type RangeCardProps = {
  range: SplitRange;
  index: number;
  pdf: PacketPdf | null;
  options: { value: string; label: string }[];
  disabled: boolean;
  dispatch: (action: SplitAction) => void;
};

/** One document of the packet: which item it is, and its pages. */
function RangeCard({ range, index, pdf, options, disabled, dispatch }: RangeCardProps) {
  const pages = pagesOf(range);
  const pagesText = `${pages.length === 1 ? 'Page' : 'Pages'} ${formatPageList(pages)}`;
  return (
    <Paper withBorder p="xs" data-testid="split-range">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end" gap="xs">
          <Select
            label={pagesText}
            data={options}
            value={range.formId ?? LEAVE_OUT}
            allowDeselect={false}
            disabled={disabled}
            onChange={(value) =>
              dispatch({ type: 'assign', index, formId: value === LEAVE_OUT ? null : value })
            }
            w={{ base: '100%', xs: 320 }}
          />
          {index > 0 && (
            <Button
              size="xs"
              variant="default"
              disabled={disabled}
              // The visible words first, as speech input users say them (WCAG 2.5.3).
              aria-label={`Merge with previous: ${pagesText.toLowerCase()}`}
              onClick={() => dispatch({ type: 'merge', index })}
            >
              Merge with previous
            </Button>
          )}
        </Group>
        <Group gap="xs" align="flex-start">
          {pages.map((page) => (
            <Stack key={page} gap={4} align="center" w={THUMBNAIL_WIDTH}>
              <PageThumbnail pdf={pdf} page={page} />
              {page !== range.first && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  disabled={disabled}
                  aria-label={`New document from page ${page}`}
                  onClick={() => dispatch({ type: 'start', page })}
                >
                  New document
                </Button>
              )}
            </Stack>
          ))}
        </Group>
      </Stack>
    </Paper>
  );
}

/** A page drawn once it scrolls near the screen: a 60-page packet is not drawn all at once. */
function PageThumbnail({ pdf, page }: { pdf: PacketPdf | null; page: number }) {
  const [source, setSource] = useState<string | null>(null);
  const frameRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const frame = frameRef.current;
    if (!pdf || !frame) return;
    let cancelled = false;
    const draw = () =>
      pdf.drawThumbnail(page, THUMBNAIL_WIDTH).then(
        (url) => {
          if (!cancelled) setSource(url);
        },
        // The caption still says which page it is.
        () => {},
      );
    if (typeof IntersectionObserver === 'undefined') {
      void draw();
      return () => {
        cancelled = true;
      };
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        void draw();
      },
      { rootMargin: '200px' },
    );
    observer.observe(frame);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [pdf, page]);

  return (
    <>
      <Box
        ref={frameRef}
        w={THUMBNAIL_WIDTH}
        h={THUMBNAIL_HEIGHT}
        bg="white"
        style={{ border: '1px solid var(--mantine-color-gray-4)' }}
      >
        {source && <Image src={source} alt={`Page ${page}`} w="100%" h="100%" fit="contain" />}
      </Box>
      {/* The picture's text alternative says the same to a screen reader. */}
      <Text size="xs" aria-hidden={source ? 'true' : undefined}>
        {`Page ${page}`}
      </Text>
    </>
  );
}
