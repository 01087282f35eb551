import type { CreateSignatureRequestInput, FieldKind } from '../../../shared/schemas/esign';

/**
 * The fields an agent places for signers before sending: where each sits on its page, in PDF
 * points from the page's top-left corner (what the server takes), whatever zoom it was placed at.
 */

export type PlacedField = CreateSignatureRequestInput['fields'][number] & {
  /** Stable while the agent drags and removes fields: React's key. */
  key: number;
};

export type PageSize = { width: number; height: number };

export const KIND_LABELS: Record<FieldKind, string> = {
  signature: 'Signature',
  initials: 'Initials',
  date: 'Date',
  text: 'Text',
};

/** A new field's size in points: a signature line, an initials box, one line of text. */
export const DEFAULT_SIZES: Record<FieldKind, { width: number; height: number }> = {
  signature: { width: 180, height: 40 },
  initials: { width: 60, height: 30 },
  date: { width: 110, height: 20 },
  text: { width: 180, height: 20 },
};

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));
/** Whole tenths of a point: what a pointer can mean, without a float's noise in the request. */
const tenth = (value: number) => Math.round(value * 10) / 10;

/** A field kept on its page: moved back inside when it would hang over an edge. */
export function keptOnPage<T extends Omit<PlacedField, 'key' | 'signer' | 'kind' | 'page'>>(
  field: T,
  page: PageSize,
): T {
  const width = Math.min(field.width, page.width);
  const height = Math.min(field.height, page.height);
  return {
    ...field,
    width,
    height,
    x: tenth(clamp(field.x, 0, page.width - width)),
    y: tenth(clamp(field.y, 0, page.height - height)),
  };
}

/** A new field of `kind` centred on the point (in points) where the agent clicked or tapped. */
export function fieldAt(
  point: { x: number; y: number },
  placing: { key: number; signer: number; page: number; kind: FieldKind },
  page: PageSize,
): PlacedField {
  const size = DEFAULT_SIZES[placing.kind];
  return keptOnPage({ ...placing, ...size, x: point.x - size.width / 2, y: point.y - size.height / 2 }, page);
}

/** The field moved by a drag of (dx, dy) points, kept on its page. */
export function movedBy(field: PlacedField, delta: { dx: number; dy: number }, page: PageSize): PlacedField {
  return keptOnPage({ ...field, x: field.x + delta.dx, y: field.y + delta.dy }, page);
}

/**
 * The fields once signer `removed` leaves the list: theirs go, and those of the signers after
 * them follow their owners down one place.
 */
export function withoutSigner(fields: readonly PlacedField[], removed: number): PlacedField[] {
  return fields
    .filter((field) => field.signer !== removed)
    .map((field) => (field.signer > removed ? { ...field, signer: field.signer - 1 } : field));
}

/** The request's `fields`, in page order (the order the signing page lists them in). */
export function requestFields(fields: readonly PlacedField[]) {
  return [...fields]
    .sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x)
    .map(({ signer, page, kind, x, y, width, height }) => ({ signer, page, kind, x, y, width, height }));
}

/**
 * A field's box over the page in a colour (Mantine's name for it): the sender's placer and the
 * signer's page draw fields alike, the page's text still readable through them.
 */
export function fieldBoxStyle(color: string) {
  return {
    border: `2px solid var(--mantine-color-${color}-7)`,
    background: `color-mix(in srgb, var(--mantine-color-${color}-3) 40%, transparent)`,
    borderRadius: 2,
    overflow: 'hidden',
  } as const;
}

/** Each signer's colour on the page and in the lists: told apart at a glance, up to ten. */
export const SIGNER_COLORS = [
  'blue',
  'grape',
  'teal',
  'orange',
  'pink',
  'cyan',
  'lime',
  'indigo',
  'red',
  'violet',
] as const;

export const signerColor = (index: number) => SIGNER_COLORS[index % SIGNER_COLORS.length] ?? 'blue';
