import { useEffect, useRef, useState } from 'react';
import type { ReviewQueueItem, ReviewQueuePage } from '../../../shared/schemas/compliance';

/**
 * Where review mode stands: an index on the page (or the page's last item once it loads), and
 * the item on screen, pinned once its page has arrived. Only the reviewer moves the pin (open,
 * J/K, a decision): a refetch (a live event, another reviewer's decision) finds the pinned item
 * again and moves the index to it, so the dialog keeps its item and what was typed into it.
 */
type Reviewing = { index: number | 'last'; item: ReviewQueueItem | null };

const itemKey = (item: ReviewQueueItem) => `${item.kind}:${item.form._id}`;

/**
 * The pin after the list changed: the same item wherever it now stands. Its fresh copy replaces
 * the pinned one only while it is the same version (the dialog remounts for a new version); an
 * item no longer in the list stays on screen, and deciding it gets the server's answer.
 */
function repin(reviewing: Reviewing, items: readonly ReviewQueueItem[]): Reviewing {
  const { item } = reviewing;
  if (!item) return reviewing;
  const index = items.findIndex((candidate) => itemKey(candidate) === itemKey(item));
  const fresh = items[index];
  if (!fresh) return reviewing;
  const kept = fresh.form.version === item.form.version ? fresh : item;
  return index === reviewing.index && kept === item ? reviewing : { index, item: kept };
}

type ReviewModeOptions = {
  /** The queue's page on screen; undefined before its first load. */
  items: readonly ReviewQueueItem[] | undefined;
  /** False while `items` are still the previous page's, shown until the new page arrives. */
  settled: boolean;
  page: number;
  totalPages: number;
  pageSize: number;
  setPage: (page: number) => void;
  /** Loads the queue again after a decision (with whatever else it made stale): its new answer. */
  refetch: () => Promise<ReviewQueuePage | undefined>;
  /** The item just decided, before the reload: anything the page holds about it is stale. */
  onLeave: (item: ReviewQueueItem) => void;
};

/**
 * Review mode: one item of the queue at a time in the review dialog, the reviewer stepping
 * through the queue across its pages, each decision bringing on the item after it.
 */
export function useReviewMode({
  items,
  settled,
  page,
  totalPages,
  pageSize,
  setPage,
  refetch,
  onLeave,
}: ReviewModeOptions) {
  const [reviewing, setReviewing] = useState<Reviewing | null>(null);
  // A decision's answer comes back after renders that may have moved the pin.
  const latest = useRef(reviewing);
  latest.current = reviewing;

  // A move onto another page pins its first (or, going back, its last) item once it has arrived;
  // a refetch of the page finds the pinned item again.
  useEffect(() => {
    if (!settled || !items || !reviewing) return;
    if (reviewing.item) {
      const moved = repin(reviewing, items);
      if (moved !== reviewing) setReviewing(moved);
      return;
    }
    const index = reviewing.index === 'last' ? Math.max(0, items.length - 1) : reviewing.index;
    const item = items[index] ?? null;
    if (item || index !== reviewing.index) setReviewing({ index, item });
  }, [settled, items, reviewing]);

  const index = typeof reviewing?.index === 'number' ? reviewing.index : null;
  const current = reviewing?.item ?? null;
  // Once the item on screen has left the page (decided elsewhere), its place holds the next one.
  const placed = index === null ? undefined : items?.[index];
  const inPlace = placed !== undefined && current !== null && itemKey(placed) === itemKey(current);
  const following = index === null ? null : inPlace ? index + 1 : index;
  const hasNext =
    following !== null && items !== undefined && (following < items.length || page < totalPages);
  const hasPrevious = index !== null && (index > 0 || page > 1);
  /** Review the item at `at` on the page shown, or (null) the one the next page brings. */
  const reviewAt = (at: number | 'last', on: readonly ReviewQueueItem[] | null) =>
    setReviewing({ index: at, item: on && typeof at === 'number' ? (on[at] ?? null) : null });
  const next = () => {
    if (following === null || !items) return;
    if (following < items.length) reviewAt(following, items);
    else if (page < totalPages) {
      setPage(page + 1);
      reviewAt(0, null);
    }
  };
  const previous = () => {
    if (index === null || !items) return;
    if (index > 0) reviewAt(index - 1, items);
    else if (page > 1) {
      setPage(page - 1);
      reviewAt('last', null);
    }
  };

  /** After a decision the item leaves the queue: the next one takes its place. */
  const decided = async () => {
    // Where the decided item stood when the decision came back: a live refetch may have moved it.
    const at = latest.current?.index;
    if (typeof at !== 'number') return;
    const done = latest.current?.item;
    if (done) onLeave(done);
    const answer = await refetch();
    if (!answer || answer.totalItems === 0) {
      setReviewing(null);
      if (page !== 1) setPage(1);
      return;
    }
    if (answer.items.length > at) reviewAt(at, answer.items);
    else if (page < answer.totalPages) {
      setPage(page + 1);
      reviewAt(0, null);
    } else if (answer.items.length > 0) reviewAt(0, answer.items);
    else {
      setPage(1);
      reviewAt(0, null);
    }
  };

  return {
    opened: reviewing !== null,
    item: current,
    position: (page - 1) * pageSize + (index ?? 0) + 1,
    hasNext,
    hasPrevious,
    next,
    previous,
    decided,
    open: (item: ReviewQueueItem) => setReviewing({ index: items?.indexOf(item) ?? 0, item }),
    close: () => setReviewing(null),
  };
}
