import { Group, Text } from '@mantine/core';

type LogoProps = {
  /** Height of the mark in pixels; the wordmark scales with it. */
  size?: number;
  /** The mark alone, for narrow places. */
  markOnly?: boolean;
};

const PRODUCT_NAME = 'Brokerage Portal';

/** The product mark, drawn here so nothing is fetched from another host (CSP). */
export function Logo({ size = 36, markOnly = false }: LogoProps) {
  return (
    <Group gap="xs" wrap="nowrap" role="img" aria-label={PRODUCT_NAME}>
      <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
        <rect width="48" height="48" rx="12" fill="var(--mantine-primary-color-filled)" />
        {/* A roof over a document: transactions on properties. */}
        <path d="M10 23 24 11l14 12" fill="none" stroke="#fff" strokeWidth="3.5" strokeLinejoin="round" />
        <path d="M15 22v15h18V22" fill="none" stroke="#fff" strokeWidth="3" strokeLinejoin="round" />
        <path d="M19.5 27.5h9M19.5 32h6" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      {!markOnly && (
        <Text component="span" fw={700} fz={size * 0.5} lh={1} aria-hidden="true">
          {PRODUCT_NAME}
        </Text>
      )}
    </Group>
  );
}
