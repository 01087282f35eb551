import { useId, useState } from 'react';

/** A part of a card shown on demand, with the id its toggle button points at while it is open. */
export type Panel = { open: boolean; id: string; toggle: () => void };

export function usePanel(): Panel {
  const [open, setOpen] = useState(false);
  const id = useId();
  return { open, id, toggle: () => setOpen((shown) => !shown) };
}
