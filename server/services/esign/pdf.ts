// REPLACED BY THE esign-pdf BRANCH
import { PDFDocument } from 'pdf-lib';
import type { SigningIdentity } from './identity';

/**
 * The PDF side of a signature request. This placeholder counts pages for real and returns the
 * document unchanged: drawing the values, the certificate page and the digital signature come
 * with the PDF signing code.
 */
export type FieldKind = 'signature' | 'initials' | 'date' | 'text';
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

export async function pageCountOf(pdf: Uint8Array): Promise<number> {
  return (await PDFDocument.load(pdf, { updateMetadata: false })).getPageCount();
}

export async function signedDocument(input: {
  pdf: Uint8Array;
  values: PlacedValue[];
  certificate: CertificateFacts;
  identity: SigningIdentity;
}): Promise<Uint8Array> {
  return input.pdf;
}
