/**
 * The words of closed files' archives: the server's refusals and the transaction pages' archive
 * card. A module of its own, not messages.ts: only lazy pages and the server read these, and
 * messages.ts travels in every visit's first download.
 */
export const archiveMessages = {
  closeFirst: 'Close the transaction first',
  beingPrepared: 'The archive is being prepared',
  notAZip: 'The file is not a zip archive',
  damagedZip: 'The zip archive is damaged',
  tooLarge: 'The zip archive unpacks to more than this server checks',
  sealFailed: 'The archive could not be sealed',
  purged: 'The archive was purged with the documents of this transaction after its retention',
} as const;

/** The archive card on the agent's and the admin's transaction pages. */
export const archiveLabels = {
  title: 'Archive',
  preparing: 'The archive is being prepared. It is ready a few moments after the file is closed.',
  failed: 'The archive could not be sealed. Reopen and close the file to try again.',
  download: 'Download archive',
  downloading: 'Downloading…',
  downloadFailed: 'The archive could not be downloaded',
  sealedAt: 'Sealed',
  sha256: 'SHA-256 of the zip',
  size: 'Size',
} as const;
