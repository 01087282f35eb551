import type { MailContent } from './content';

/**
 * The messages we send, each as plain text and HTML with the same content (DESIGN.md section 4).
 * Every value that came from a user is escaped before it enters the HTML.
 */

const PRODUCT = 'Brokerage Portal';

type Layout = {
  to: string;
  subject: string;
  greeting: string;
  lines: string[];
  link: string;
  action: string;
};

function compose({ to, subject, greeting, lines, link, action }: Layout): MailContent {
  return { to, subject, greeting, paragraphs: lines, action: { label: action, url: link } };
}

export function verifyEmailMessage(args: { to: string; firstName: string; link: string }): MailContent {
  return compose({
    to: args.to,
    subject: `Verify your email for ${PRODUCT}`,
    greeting: `Hello ${args.firstName},`,
    lines: [
      `Thank you for registering with ${PRODUCT}. Please confirm that this is your email address.`,
      'The link is valid for 48 hours. After you verify, an administrator will review your account.',
    ],
    link: args.link,
    action: 'Verify email',
  });
}

export function resetPasswordMessage(args: { to: string; firstName: string; link: string }): MailContent {
  return compose({
    to: args.to,
    subject: `Reset your ${PRODUCT} password`,
    greeting: `Hello ${args.firstName},`,
    lines: [
      'We received a request to reset your password. Choose a new one with the link below.',
      'The link is valid for 1 hour and can be used once. If you did not ask for this, ignore this email: your password stays the same.',
    ],
    link: args.link,
    action: 'Set a new password',
  });
}

export function accountApprovedMessage(args: { to: string; firstName: string; link: string }): MailContent {
  return compose({
    to: args.to,
    subject: `Your ${PRODUCT} account is ready`,
    greeting: `Hello ${args.firstName},`,
    lines: ['An administrator approved your account. You can sign in now.'],
    link: args.link,
    action: 'Sign in',
  });
}
