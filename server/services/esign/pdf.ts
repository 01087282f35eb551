import { X509Certificate } from 'node:crypto';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SUBFILTER_ADOBE_PKCS7_DETACHED } from '@signpdf/utils';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { esignPdfMessages } from '../../../shared/esign-messages';
import { objectsEndToEnd } from '../../documents/pdf';
import { AppError } from '../../errors';
import { appendCertificatePage } from './certificate-page';
import { drawValues } from './fields';
import type { SigningIdentity } from './identity';
import { signInPlace } from './sign-in-place';
import type { CertificateFacts, PlacedValue } from './types';

/**
 * A completed signature request as one PDF: the signers' values drawn into the document, a
 * certificate of completion appended, and the whole file signed as a PDF digital signature
 * (PKCS#7 detached, SubFilter adbe.pkcs7.detached) with the instance's identity, so any reader
 * (Acrobat, Poppler's pdfsig) can tell whether a byte changed since.
 */

export type { CertificateFacts, CertificateSigner, FieldKind, PlacedValue } from './types';

/** Bytes of the signature's /Contents beyond the certificates: the RSA signature and attributes. */
const SIGNATURE_ROOM_BYTES = 4096;

/** The document for changing: a readable, unencrypted PDF with pages, else the client's 400. */
async function editable(pdf: Uint8Array): Promise<PDFDocument> {
  // pdf-lib crawls bytes that are no object for seconds: such a file is refused before parsing.
  if (!objectsEndToEnd(pdf)) throw new AppError('BAD_REQUEST', esignPdfMessages.unreadablePdf);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false });
  } catch {
    throw new AppError('BAD_REQUEST', esignPdfMessages.unreadablePdf);
  }
  if (doc.isEncrypted) throw new AppError('BAD_REQUEST', esignPdfMessages.encryptedPdf);
  let pages: number;
  try {
    pages = doc.getPageCount();
  } catch {
    // A page tree that loops overflows the stack: not a document to sign.
    throw new AppError('BAD_REQUEST', esignPdfMessages.unreadablePdf);
  }
  if (pages === 0) throw new AppError('BAD_REQUEST', esignPdfMessages.unreadablePdf);
  return doc;
}

/** Page count of a PDF; throws AppError BAD_REQUEST if it is not a readable PDF. */
export async function pageCountOf(pdf: Uint8Array): Promise<number> {
  return (await editable(pdf)).getPageCount();
}

function commonNameOf(certificatePem: string): string {
  const subject = new X509Certificate(certificatePem).subject;
  return /^CN=(.*)$/m.exec(subject)?.[1] ?? subject.replaceAll('\n', ', ');
}

/**
 * Draws the values into the pages, appends the certificate page, then signs the whole file with
 * the identity. Returns the signed bytes.
 */
export async function signedDocument(input: {
  pdf: Uint8Array;
  values: PlacedValue[];
  certificate: CertificateFacts;
  identity: SigningIdentity;
}): Promise<Uint8Array> {
  const prepared = await preparedDocument(input);
  return signInPlace(prepared, input.identity, input.certificate.completedAt);
}

/**
 * The document with its values, certificate page and an empty signature, saved. A function of
 * its own so pdf-lib's copy of the document can be collected before the signing step runs.
 */
async function preparedDocument(input: {
  pdf: Uint8Array;
  values: PlacedValue[];
  certificate: CertificateFacts;
  identity: SigningIdentity;
}): Promise<Uint8Array> {
  const doc = await editable(input.pdf);
  try {
    await drawValues(doc, input.values);
  } catch (error) {
    // A page pdf-lib reads but cannot draw on (no media box, a broken content array): the
    // document's fault, as refusing it when it was sent would have been.
    if (error instanceof AppError) throw error;
    throw new AppError('BAD_REQUEST', esignPdfMessages.unreadablePdf);
  }
  const certificatePage = await appendCertificatePage(doc, input.certificate);
  pdflibAddPlaceholder({
    pdfPage: certificatePage,
    reason: `Signed electronically: ${input.certificate.subject}`,
    contactInfo: '',
    name: commonNameOf(input.identity.certificatePem),
    location: '',
    signingTime: input.certificate.completedAt,
    subFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    // Hex digits: twice the bytes of the PKCS#7, which carries the whole chain given.
    signatureLength: 2 * (chainBytes(input.identity.certificatePem) + SIGNATURE_ROOM_BYTES),
    appName: 'Brokerage Portal',
  });
  nameSignatureField(doc);
  // The placeholder is found in a classic cross-reference layout, not in object streams.
  return doc.save({ useObjectStreams: false });
}

const SIGNATURE_FIELD_NAME = 'Completion signature';

/**
 * The placeholder's field is named Signature1, a name forms often use already: two top-level
 * fields of one name are one field to a reader, which would join ours to the form's. Ours (the
 * last field added) is given a name no other top-level field has.
 */
function nameSignatureField(doc: PDFDocument): void {
  const fields = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray);
  const ours = fields.lookup(fields.size() - 1, PDFDict);
  const taken = new Set<string>();
  for (let index = 0; index < fields.size() - 1; index += 1) {
    const field = fields.lookup(index);
    const name = field instanceof PDFDict ? field.get(PDFName.of('T')) : undefined;
    if (name instanceof PDFString || name instanceof PDFHexString) taken.add(name.decodeText());
  }
  let name = SIGNATURE_FIELD_NAME;
  for (let suffix = 2; taken.has(name); suffix += 1) name = `${SIGNATURE_FIELD_NAME} ${suffix}`;
  ours.set(PDFName.of('T'), PDFString.of(name));
}

/** The DER size of the certificates in the PEM, which the PKCS#7 carries. */
function chainBytes(pem: string): number {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.reduce((sum, block) => sum + new X509Certificate(block).raw.length, 0);
}
