import { Box, Text } from '@mantine/core';
import { type KeyboardEvent, type PointerEvent, useRef } from 'react';
import { fieldBoxStyle, KIND_LABELS, type PageSize, type PlacedField, signerColor } from './placement';

type FieldPlacerProps = {
  fields: readonly PlacedField[];
  signerNames: readonly string[];
  pageNumber: number;
  /** CSS pixels per PDF point of the page as drawn. */
  scale: number;
  /** The page's size in points. */
  size: PageSize;
  /** A click or tap on the page, in points from its top-left corner. */
  onPlace: (point: { x: number; y: number }, page: PageSize) => void;
  /** A field dragged (or moved with the arrow keys) to a new top-left corner, in points. */
  onMove: (key: number, to: { x: number; y: number }, page: PageSize) => void;
  onRemove: (key: number) => void;
};

/** Points an arrow key moves a field; with Shift, a bigger step. */
const KEY_STEP = 5;
const SHIFT_STEP = 25;
const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

type Drag = {
  key: number;
  pointerId: number;
  startX: number;
  startY: number;
  from: { x: number; y: number };
};

/**
 * The layer over the drawn page where the agent places fields: a click or tap places one for the
 * signer and kind chosen above the viewer, a field drags to where it belongs, and each field is
 * also reached with Tab, moved with the arrow keys and removed with Delete, so the mouse is not
 * the only way. Each signer's fields wear that signer's colour.
 */
export function FieldPlacer(props: FieldPlacerProps) {
  const { fields, signerNames, pageNumber, scale, size } = props;
  const drag = useRef<Drag | null>(null);

  const place = (event: { clientX: number; clientY: number; currentTarget: HTMLElement }) => {
    const rect = event.currentTarget.getBoundingClientRect();
    props.onPlace({ x: (event.clientX - rect.left) / scale, y: (event.clientY - rect.top) / scale }, size);
  };

  const startDrag = (field: PlacedField, event: PointerEvent<HTMLDivElement>) => {
    event.stopPropagation();
    // No text selection or native drag under the pointer; the field still takes the focus, so
    // the arrow keys go on where the pointer left off.
    event.preventDefault();
    event.currentTarget.focus();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = {
      key: field.key,
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      from: { x: field.x, y: field.y },
    };
  };
  const continueDrag = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = (event.clientX - current.startX) / scale;
    const dy = (event.clientY - current.startY) / scale;
    props.onMove(current.key, { x: current.from.x + dx, y: current.from.y + dy }, size);
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointerId === event.pointerId) drag.current = null;
  };

  const onFieldKey = (field: PlacedField, event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      props.onRemove(field.key);
      return;
    }
    const arrow = ARROWS[event.key];
    if (!arrow) return;
    event.preventDefault();
    const step = event.shiftKey ? SHIFT_STEP : KEY_STEP;
    props.onMove(field.key, { x: field.x + arrow[0] * step, y: field.y + arrow[1] * step }, size);
  };

  return (
    <Box data-testid="field-placer" pos="absolute" inset={0} style={{ cursor: 'crosshair' }} onClick={place}>
      {fields
        .filter((field) => field.page === pageNumber)
        .map((field) => {
          const color = signerColor(field.signer);
          const name = signerNames[field.signer] || `Signer ${field.signer + 1}`;
          const label = `${KIND_LABELS[field.kind]} for ${name}`;
          return (
            <Box
              key={field.key}
              role="button"
              tabIndex={0}
              aria-roledescription="movable field"
              aria-label={`${label}, page ${field.page}: drag or use the arrow keys to move, Delete to remove`}
              data-testid={`placed-field-${field.key}`}
              pos="absolute"
              left={field.x * scale}
              top={field.y * scale}
              w={field.width * scale}
              h={field.height * scale}
              style={{
                ...fieldBoxStyle(color),
                cursor: 'move',
                // A finger on a field drags it instead of scrolling the page.
                touchAction: 'none',
              }}
              onPointerDown={(event) => startDrag(field, event)}
              onPointerMove={continueDrag}
              onPointerUp={endDrag}
              onPointerCancel={endDrag}
              // A drag ends in a click on the field: it must not place a new one under it.
              onClick={(event) => event.stopPropagation()}
              onKeyDown={(event) => onFieldKey(field, event)}
            >
              <Text size="10px" lh={1.1} px={2} c="black" truncate aria-hidden="true">
                {label}
              </Text>
            </Box>
          );
        })}
    </Box>
  );
}
