import { createPrivateKey, sign } from 'node:crypto';
import forge from 'node-forge';
import type { SigningIdentity } from './identity';

/**
 * The PKCS#7 (CMS SignedData, detached) a PDF signature holds. Built here rather than by
 * @signpdf/signer-p12 because that signer digests the document in JavaScript (node-forge)
 * through binary strings: for a 25 MB document that took seconds and hundreds of megabytes.
 * Here the caller digests the bytes with Node and Node signs; forge only reads the PKCS#12 and
 * writes the few ASN.1 structures around them. The signed attributes are those Adobe expects for
 * adbe.pkcs7.detached, in the same order: content type, signing time, message digest.
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
  certBag: pki.oids.certBag ?? '1.2.840.113549.1.12.10.1.3',
} as const;

type Parsed = { keyPem: string; signing: forge.pki.Certificate; chain: forge.pki.Certificate[] };

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

/** Decrypting a PKCS#12 costs a key derivation: each identity's is read once. */
const parsedByP12 = new WeakMap<Buffer, Parsed>();

/** The key and certificates of the identity's PKCS#12, and the certificate the key belongs to. */
function parse(p12: Buffer): Parsed {
  const known = parsedByP12.get(p12);
  if (known) return known;
  const store = forge.pkcs12.pkcs12FromAsn1(asn1.fromDer(p12.toString('binary')), false, '');
  const keyBag = store.getBags({ bagType: OIDS.keyBag })[OIDS.keyBag]?.[0];
  const key = keyBag?.key as forge.pki.rsa.PrivateKey | undefined;
  const certificates = (store.getBags({ bagType: OIDS.certBag })[OIDS.certBag] ?? [])
    .map((bag: forge.pkcs12.Bag) => bag.cert)
    .filter((certificate): certificate is forge.pki.Certificate => certificate !== undefined);
  const signing = certificates.find((certificate) => {
    const publicKey = certificate.publicKey as forge.pki.rsa.PublicKey;
    return key !== undefined && key.n.compareTo(publicKey.n) === 0 && key.e.compareTo(publicKey.e) === 0;
  });
  if (!key || !signing) throw new Error('The signing identity holds no certificate for its key');
  const parsed = { keyPem: pki.privateKeyToPem(key), signing, chain: certificates };
  parsedByP12.set(p12, parsed);
  return parsed;
}

/** The DER PKCS#7 for a document whose signed bytes have this SHA-256. */
export function detachedSignature(identity: SigningIdentity, digest: Buffer, signingTime: Date): Buffer {
  const { keyPem, signing, chain } = parse(identity.p12);
  const attributes = [
    attribute(OIDS.contentType, oid(OIDS.data)),
    attribute(
      OIDS.signingTime,
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.UTCTIME, false, asn1.dateToUtcTime(signingTime)),
    ),
    attribute(OIDS.messageDigest, octets(digest.toString('binary'))),
  ];
  // The attributes are signed as a SET (RFC 2315 9.3) and stored as [0] IMPLICIT.
  const signature = sign('sha256', der(set(attributes)), createPrivateKey(keyPem));
  const signerInfo = sequence([
    integer(String.fromCharCode(1)),
    sequence([
      pki.distinguishedNameToAsn1(signing.issuer),
      integer(forge.util.hexToBytes(signing.serialNumber)),
    ]),
    algorithm(OIDS.sha256),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, attributes),
    algorithm(OIDS.rsaEncryption),
    octets(signature.toString('binary')),
  ]);
  const signedData = sequence([
    integer(String.fromCharCode(1)),
    set([algorithm(OIDS.sha256)]),
    sequence([oid(OIDS.data)]),
    asn1.create(
      asn1.Class.CONTEXT_SPECIFIC,
      0,
      true,
      chain.map((certificate) => pki.certificateToAsn1(certificate)),
    ),
    set([signerInfo]),
  ]);
  return der(
    sequence([oid(OIDS.signedData), asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData])]),
  );
}
