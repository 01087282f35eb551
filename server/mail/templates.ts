import type { MailContent } from './content';

/**
 * The account mails: what each says. Their look, the HTML and text parts
 * and the escaping of what users typed are server/mail/render.ts's.
 */

const PRODUCT = 'Brokerage Portal';

export function verifyEmailMessage(args: { to: string; firstName: string; link: string }): MailContent {
  return {
    to: args.to,
    subject: `Verify your email for ${PRODUCT}`,
    greeting: `Hello ${args.firstName},`,
    paragraphs: [
      `Thank you for registering with ${PRODUCT}. Please confirm that this is your email address.`,
      'The link is valid for 48 hours. After you verify, an administrator will review your account.',
    ],
    action: { label: 'Verify email', url: args.link },
  };
}

export function resetPasswordMessage(args: { to: string; firstName: string; link: string }): MailContent {
  return {
    to: args.to,
    subject: `Reset your ${PRODUCT} password`,
    greeting: `Hello ${args.firstName},`,
    paragraphs: [
      'We received a request to reset your password. Choose a new one with the link below.',
      'The link is valid for 1 hour and can be used once. If you did not ask for this, ignore this email: your password stays the same.',
    ],
    action: { label: 'Set a new password', url: args.link },
  };
}

export function accountApprovedMessage(args: { to: string; firstName: string; link: string }): MailContent {
  return {
    to: args.to,
    subject: `Your ${PRODUCT} account is ready`,
    greeting: `Hello ${args.firstName},`,
    paragraphs: ['An administrator approved your account. You can sign in now.'],
    action: { label: 'Sign in', url: args.link },
  };
}
