/**
 * What a completed signature request's PDF is made from: the signers' values where they placed
 * them, and the facts its certificate page states. Exported to callers through pdf.ts.
 */

export type FieldKind = 'signature' | 'initials' | 'date' | 'text';
/** Coordinates: PDF points from the page's top-left (page 1-based). value: a PNG data URL
 *  ("data:image/png;base64,...") or text (typed name / date string / text). */
export type PlacedValue = {
  page: number;
  kind: FieldKind;
  x: number;
  y: number;
  width: number;
  height: number;
  value: string;
};
export type CertificateSigner = {
  name: string;
  email: string;
  ip: string;
  userAgent: string;
  viewedAt: Date | null;
  signedAt: Date;
};
export type CertificateFacts = {
  subject: string;
  documentSha256: string;
  signers: CertificateSigner[];
  completedAt: Date;
  timeZone?: string;
};
