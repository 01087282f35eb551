import { Anchor, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

type AuthFooterLinkProps = {
  /** The words before the link ("Don't have an account?"), if any. */
  prompt?: string;
  href: string;
  children: ReactNode;
};

/** The way to the next signed-out screen, at the foot of the card. */
export function AuthFooterLink({ prompt, href, children }: AuthFooterLinkProps) {
  return (
    <Text size="sm" ta="center">
      {prompt && `${prompt} `}
      <Anchor component={Link} href={href}>
        {children}
      </Anchor>
    </Text>
  );
}
