import type { MailContent } from '../../mail/content';

/**
 * The mail a user gets when the last passkey of the account was removed: if that was not them,
 * someone holds their session and their password, and they should act at once.
 */
export function lastPasskeyRemovedMessage(args: {
  to: string;
  firstName: string;
  passkeyName: string;
  link: string;
}): MailContent {
  return {
    to: args.to,
    subject: 'The last passkey of your Brokerage Portal account was removed',
    greeting: `Hello ${args.firstName},`,
    paragraphs: [
      `Your passkey "${args.passkeyName}" was removed. Your account now signs in with its password alone.`,
      'If you did not do this, change your password now and add a new passkey in your settings.',
    ],
    action: { label: 'Open your settings', url: args.link },
  };
}
