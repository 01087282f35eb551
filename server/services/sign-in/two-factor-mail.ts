import type { MailContent } from '../../mail/content';

/** The mails that tell a user their second factor changed: a change they did not make is news. */

const PRODUCT = 'Brokerage Portal';

export function twoFactorChangedMessage(args: {
  to: string;
  firstName: string;
  turnedOn: boolean;
  settingsUrl: string;
}): MailContent {
  const what = args.turnedOn ? 'turned on' : 'turned off';
  return {
    to: args.to,
    subject: `Two-factor sign-in was ${what} for your ${PRODUCT} account`,
    greeting: `Hello ${args.firstName},`,
    paragraphs: [
      `Two-factor sign-in with an authenticator app was just ${what} for your account.`,
      'If this was not you, change your password at once and tell an administrator.',
    ],
    action: { label: 'Open your settings', url: args.settingsUrl },
  };
}
