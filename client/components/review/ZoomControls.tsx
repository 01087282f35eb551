import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import {
  ACTUAL_SIZE,
  FIT_WIDTH,
  MAX_SCALE,
  MIN_SCALE,
  percentOf,
  type Zoom,
  zoomedIn,
  zoomedOut,
} from './viewer-zoom';

type ZoomControlsProps = {
  zoom: Zoom;
  /** The scale on screen (fitted or fixed), shown as a percentage and stepped from. */
  shown: number;
  onChange: (zoom: Zoom) => void;
};

/**
 * Zoom out, the percentage, zoom in, fit width and actual size, for a PDF page or an image.
 * A button at its limit stays focusable (aria-disabled, not disabled): a keyboard user who zooms
 * all the way keeps their place instead of being thrown to the top of the dialog.
 */
export function ZoomControls({ zoom, shown, onChange }: ZoomControlsProps) {
  const smallest = shown <= MIN_SCALE;
  const largest = shown >= MAX_SCALE;
  const fitting = zoom.kind === 'fit-width';
  const actual = zoom.kind === 'scale' && zoom.scale === 1;
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label="Zoom">
      <ActionIcon
        variant="default"
        aria-label="Zoom out"
        aria-disabled={smallest}
        data-disabled={smallest || undefined}
        onClick={() => !smallest && onChange(zoomedOut(shown))}
      >
        <IconZoomOut size={16} aria-hidden="true" />
      </ActionIcon>
      <Text size="xs" w={40} ta="center" data-testid="zoom-percent">
        {percentOf(shown)}
      </Text>
      <ActionIcon
        variant="default"
        aria-label="Zoom in"
        aria-disabled={largest}
        data-disabled={largest || undefined}
        onClick={() => !largest && onChange(zoomedIn(shown))}
      >
        <IconZoomIn size={16} aria-hidden="true" />
      </ActionIcon>
      <Button
        size="compact-xs"
        variant={fitting ? 'light' : 'default'}
        aria-pressed={fitting}
        onClick={() => onChange(FIT_WIDTH)}
      >
        Fit width
      </Button>
      <Button
        size="compact-xs"
        variant={actual ? 'light' : 'default'}
        aria-pressed={actual}
        onClick={() => onChange(ACTUAL_SIZE)}
      >
        Actual size
      </Button>
    </Group>
  );
}
