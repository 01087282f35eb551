import { Box, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { type PointerEvent, useRef, useState } from 'react';

/**
 * The drawing's own resolution, whatever its size on screen: a line drawing of 600 x 180 pixels
 * is a PNG of a few kilobytes, far under the server's 200 KB, on a phone with a 3x screen too.
 */
const DRAWING_WIDTH = 600;
const DRAWING_HEIGHT = 180;

type Mode = 'draw' | 'type';

type SignaturePadProps = {
  /** The field's name on screen, "Signature 1" or "Initials 2". */
  label: string;
  /** What typing offers to start from: the signer's name, or its initials. */
  suggestion: string;
  /** The field's value: a PNG data URL when drawn, the text when typed, '' when empty. */
  onChange: (value: string) => void;
};

/**
 * A signature or initials field: drawn on a canvas with a finger, a pen or a mouse (pointer events;
 * `touch-action: none` keeps the page from scrolling under the finger), or typed, which is also
 * the way for a keyboard.
 */
export function SignaturePad({ label, suggestion, onChange }: SignaturePadProps) {
  const [mode, setMode] = useState<Mode>('draw');
  const [typed, setTyped] = useState(suggestion);
  const [drawing, setDrawing] = useState('');
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const stroking = useRef(false);

  const pointAt = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return {
      x: ((event.clientX - box.left) * DRAWING_WIDTH) / (box.width || DRAWING_WIDTH),
      y: ((event.clientY - box.top) * DRAWING_HEIGHT) / (box.height || DRAWING_HEIGHT),
    };
  };

  const start = (event: PointerEvent<HTMLCanvasElement>) => {
    const context = event.currentTarget.getContext('2d');
    if (!context) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    stroking.current = true;
    const { x, y } = pointAt(event);
    context.lineWidth = 3;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#111';
    context.beginPath();
    context.moveTo(x, y);
    // A tap leaves a dot.
    context.lineTo(x + 0.1, y + 0.1);
    context.stroke();
  };

  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!stroking.current) return;
    const context = event.currentTarget.getContext('2d');
    const { x, y } = pointAt(event);
    context?.lineTo(x, y);
    context?.stroke();
  };

  const end = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!stroking.current) return;
    stroking.current = false;
    const png = event.currentTarget.toDataURL('image/png');
    setDrawing(png);
    onChange(png);
  };

  const clear = () => {
    const canvas = canvasRef.current;
    canvas?.getContext('2d')?.clearRect(0, 0, DRAWING_WIDTH, DRAWING_HEIGHT);
    setDrawing('');
    onChange('');
  };

  const switchTo = (next: Mode) => {
    setMode(next);
    onChange(next === 'draw' ? drawing : typed.trim());
  };

  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={600} size="sm">
          {label}
        </Text>
        <SegmentedControl
          size="xs"
          aria-label={`${label}: draw or type`}
          value={mode}
          onChange={(value) => switchTo(value === 'type' ? 'type' : 'draw')}
          data={[
            { value: 'draw', label: 'Draw' },
            { value: 'type', label: 'Type' },
          ]}
        />
      </Group>
      {/* Kept mounted while typing, so switching back finds the drawing as it was. */}
      <Stack gap={4} display={mode === 'draw' ? undefined : 'none'}>
        <Box
          component="canvas"
          ref={canvasRef}
          width={DRAWING_WIDTH}
          height={DRAWING_HEIGHT}
          role="img"
          aria-label={`${label}: drawing area${drawing ? ', signed' : ', empty'}`}
          data-testid="signature-canvas"
          onPointerDown={start}
          onPointerMove={move}
          onPointerUp={end}
          onPointerCancel={end}
          style={{
            display: 'block',
            width: '100%',
            maxWidth: DRAWING_WIDTH,
            aspectRatio: `${DRAWING_WIDTH} / ${DRAWING_HEIGHT}`,
            touchAction: 'none',
            background: 'white',
            border: '1px dashed var(--mantine-color-gray-6)',
            borderRadius: 'var(--mantine-radius-sm)',
            cursor: 'crosshair',
          }}
        />
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            Draw with your finger, a pen or the mouse.
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={clear} aria-label={`Clear ${label}`}>
            Clear
          </Button>
        </Group>
      </Stack>
      {mode === 'type' && (
        <TextInput
          label={`${label}: type it`}
          value={typed}
          maxLength={200}
          onChange={(event) => {
            setTyped(event.currentTarget.value);
            onChange(event.currentTarget.value.trim());
          }}
          styles={{ input: { fontFamily: 'cursive', fontSize: 20 } }}
        />
      )}
    </Stack>
  );
}
