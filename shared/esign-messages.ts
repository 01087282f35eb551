/**
 * The words of electronic signatures: the server's answers and notices, and the sender's dialog.
 * A module of its own, not messages.ts: messages.ts travels in the first download of every visit,
 * which has a budget (scripts/check-bundle-budget.mjs), while only lazy pages read these.
 */

/** The PDF an e-signature request completes (server/services/esign). */
export const esignPdfMessages = {
  unreadablePdf: 'The document to sign is not a readable PDF',
  encryptedPdf: 'The document to sign is password-protected: attach an unlocked copy',
  fieldOffPage: (page: number, pages: number) => `Field on page ${page}, but the document has ${pages} pages`,
  unreadableImage: 'A signature or initials image could not be read: draw or type it again',
} as const;

/** Electronic signatures: sending an item's PDF for signature, and the public signing page. */
export const esignMessages = {
  noPdf: 'The item has no PDF to sign',
  noSigner: 'Add at least one signer',
  signerWithoutSignature: 'Every signer needs at least one signature field',
  pageOutOfRange: esignPdfMessages.fieldOffPage,
  fieldSignerUnknown: 'A field names a signer that is not in the list',
  subjectRequired: 'Subject is required',
  signerNameRequired: 'Signer name is required',
  reasonRequired: 'Give a reason',
  consentRequired: 'Agree to sign electronically first',
  fillEveryField: 'Fill in every field',
  unknownField: 'A value names a field that is not yours to fill',
  dateFilledByServer: 'Date fields are filled in by the portal: send no value for them',
  signatureImageTooLarge: 'The signature image is too large (at most 200 KB)',
  signatureNotImage: 'A signature is a PNG image (a data URL) or the typed name',
  textTooLong: 'A text field holds at most 200 characters',
  closed: 'This signature request is closed',
  unknownRequest: 'There is no such signature request',
  completedNotice: (label: string, place: string) =>
    `"${label}" was signed by everyone (${place}): the signed file awaits review`,
  declinedNotice: (name: string, label: string, place: string) =>
    `${name} declined to sign "${label}" (${place})`,
} as const;
