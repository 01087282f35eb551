import { createPrivateKey, sign } from 'node:crypto';
import forge from 'node-forge';
import type { SigningIdentity } from './identity';

/**
 * The PKCS#7 (CMS SignedData, detached) a PDF signature holds. Built here rather than by
 * @signpdf/signer-p12 because that signer digests the document in JavaScript (node-forge)
 * through binary strings: completing the benchmark's 30-page 25 MB document took 1.5 to 3.5 s
 * with it (goal: p95 <= 3 s) and the process grew from 232 to about 550 MB (goal: under 100 MB
 * of growth); with this, p95 0.7 s and at most 73 MB (bench/esign.bench.ts).
 * Here the caller digests the bytes with Node and Node signs; forge only reads the key from the
 * PKCS#12 and writes the few ASN.1 structures around the certificates' own bytes. The signed
 * attributes are those @signpdf/signer-p12 writes for adbe.pkcs7.detached, in its order:
 * content type, signing time, message digest.
 */

const { asn1, pki } = forge;
const OIDS = {
  signedData: pki.oids.signedData ?? '1.2.840.113549.1.7.2',
  data: pki.oids.data ?? '1.2.840.113549.1.7.1',
  sha256: pki.oids.sha256 ?? '2.16.840.1.101.3.4.2.1',
  rsaEncryption: pki.oids.rsaEncryption ?? '1.2.840.113549.1.1.1',
  contentType: pki.oids.contentType ?? '1.2.840.113549.1.9.3',
  signingTime: pki.oids.signingTime ?? '1.2.840.113549.1.9.5',
  messageDigest: pki.oids.messageDigest ?? '1.2.840.113549.1.9.4',
  keyBag: pki.oids.pkcs8ShroudedKeyBag ?? '1.2.840.113549.1.12.10.1.2',
} as const;

const oid = (id: string) =>
  asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(id).getBytes());
const sequence = (items: forge.asn1.Asn1[]) =>
  asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, items);
const integer = (bytes: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, bytes);
const octets = (bytes: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, bytes);
const algorithm = (id: string) =>
  sequence([oid(id), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')]);
const attribute = (id: string, value: forge.asn1.Asn1) => sequence([oid(id), set([value])]);
const der = (value: forge.asn1.Asn1) => Buffer.from(asn1.toDer(value).getBytes(), 'binary');

/** forge.asn1.fromDer takes options too; @types/node-forge knows only its older `strict` flag. */
const fromDerWhole = asn1.fromDer as unknown as (
  bytes: string,
  options: { decodeBitStrings: boolean },
) => forge.asn1.Asn1;

/** Decrypting a PKCS#12 costs a key derivation: each identity's key is read once. */
const keyPemByP12 = new WeakMap<Buffer, string>();

/** The private key of the identity's PKCS#12, as PEM for Node's signing. */
function keyPemOf(p12: Buffer): string {
  const known = keyPemByP12.get(p12);
  if (known) return known;
  const store = forge.pkcs12.pkcs12FromAsn1(asn1.fromDer(p12.toString('binary')), false, '');
  const key = store.getBags({ bagType: OIDS.keyBag })[OIDS.keyBag]?.[0]?.key;
  if (!key) throw new Error('The signing identity holds no private key');
  const pem = pki.privateKeyToPem(key);
  keyPemByP12.set(p12, pem);
  return pem;
}

/**
 * The certificates of the identity, the signing one first, as the ASN.1 of their own bytes (forge
 * writing them again could change bytes their issuer signed), and its issuer and serial number.
 */
function certificatesOf(pem: string): {
  certificates: forge.asn1.Asn1[];
  issuer: forge.asn1.Asn1;
  serial: forge.asn1.Asn1;
} {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const certificates = blocks.map((block) => {
    const bytes = Buffer.from(block.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
    // Bit strings left whole: forge would otherwise read a public key's into parts and write it anew.
    const node = fromDerWhole(bytes.toString('binary'), { decodeBitStrings: false });
    if (!der(node).equals(bytes))
      throw new Error('A signing certificate is not in DER as forge writes it back');
    return node;
  });
  const tbs = (certificates[0]?.value as forge.asn1.Asn1[] | undefined)?.[0]?.value as
    | forge.asn1.Asn1[]
    | undefined;
  // TBSCertificate: [0] version (absent in version 1), serialNumber, signature, issuer, ...
  const at = tbs?.[0]?.tagClass === asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  const serial = tbs?.[at];
  const issuer = tbs?.[at + 2];
  if (!serial || !issuer) throw new Error('The signing identity holds no readable certificate');
  return { certificates, issuer, serial };
}

/** The DER PKCS#7 for a document whose signed bytes have this SHA-256. */
export function detachedSignature(identity: SigningIdentity, digest: Buffer, signingTime: Date): Buffer {
  const { certificates, issuer, serial } = certificatesOf(identity.certificatePem);
  const attributes = [
    attribute(OIDS.contentType, oid(OIDS.data)),
    attribute(
      OIDS.signingTime,
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.UTCTIME, false, asn1.dateToUtcTime(signingTime)),
    ),
    attribute(OIDS.messageDigest, octets(digest.toString('binary'))),
  ];
  // The attributes are signed as a SET (RFC 2315 9.3) and stored as [0] IMPLICIT.
  const signature = sign('sha256', der(set(attributes)), createPrivateKey(keyPemOf(identity.p12)));
  const signerInfo = sequence([
    integer(String.fromCharCode(1)),
    sequence([issuer, serial]),
    algorithm(OIDS.sha256),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, attributes),
    algorithm(OIDS.rsaEncryption),
    octets(signature.toString('binary')),
  ]);
  const signedData = sequence([
    integer(String.fromCharCode(1)),
    set([algorithm(OIDS.sha256)]),
    sequence([oid(OIDS.data)]),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, certificates),
    set([signerInfo]),
  ]);
  return der(
    sequence([oid(OIDS.signedData), asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData])]),
  );
}
