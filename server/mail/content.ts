/**
 * What a mail says, before it has a look. Services build a MailContent when they
 * queue a mail (cheap, inside the request's database transaction); the mail job renders it into
 * HTML and text (server/mail/render.ts) just before sending, so the look of every mail lives in
 * one layout and a request never pays for rendering.
 */
export type MailContent = {
  to: string;
  subject: string;
  /** The preheader: the line mail clients show after the subject in the inbox. */
  preview?: string;
  /** 'Hello Ada,' */
  greeting: string;
  paragraphs: string[];
  /** A list under the paragraphs: a digest's events, a reminder's date. */
  items?: { text: string; link?: string; when?: string }[];
  /** The one button of the mail, also written out for clients that hide buttons. */
  action?: { label: string; url: string };
  /**
   * Notification mails only (an event, a digest, a reminder): the RFC 8058 one-click unsubscribe.
   * `url` is the List-Unsubscribe address (POST switches the event to in-app); `page` is the
   * address of the footer link a person follows. `what` names the setting in the footer's
   * 'You get this e-mail because <what> is set to e-mail.'
   */
  unsubscribe?: { url: string; page: string; what: string };
};

/** A mail ready for the wire. */
export type RenderedMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post for notification mails. */
  headers: Record<string, string>;
  /** The action's and the items' links; the outbox mailer logs them so a developer can follow them. */
  links?: string[];
};
