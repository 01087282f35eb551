import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import forge from 'node-forge';

/**
 * The certificate and key completed documents are signed with: the brokerage's own (SIGNING_CERT
 * and SIGNING_KEY), or else a self-signed one generated on the first start and kept in DATA_DIR,
 * so that every document an instance completes carries the same signer.
 */

export type SigningIdentity = {
  /** The signing certificate first, then any chain SIGNING_CERT carried: what a reader may trust. */
  certificatePem: string;
  /** The certificate(s) and key as PKCS#12 (empty passphrase), the form @signpdf/signer-p12 reads. */
  p12: Buffer;
};

/** A certificate or key that cannot sign: the message names the setting or file to fix. */
export class SigningIdentityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningIdentityError';
  }
}

/** Kept beside jwt-secret: the generated certificate and its key, in one file written at once. */
export const GENERATED_IDENTITY_FILE = 'signing-identity.pem';
const GENERATED_VALIDITY_YEARS = 10;

/** An environment variable may carry a PEM on one line, its line breaks written as "\n". */
function pemOf(text: string): string {
  return text.replaceAll('\\r', '').replaceAll('\\n', '\n').replaceAll('\r', '').trim();
}

/** Each PEM certificate as given (its bytes are what readers verify) and as forge reads it. */
function certificatesOf(pem: string, source: string): { pem: string; certificate: forge.pki.Certificate }[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new SigningIdentityError(`${source} holds no PEM certificate`);
  try {
    return blocks.map((block) => ({ pem: block, certificate: forge.pki.certificateFromPem(block) }));
  } catch {
    throw new SigningIdentityError(`${source} is not a readable RSA certificate in PEM`);
  }
}

function privateKeyOf(pem: string, source: string): forge.pki.rsa.PrivateKey {
  const block = pem.match(/-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+?-----END (RSA )?PRIVATE KEY-----/)?.[0];
  if (!block) {
    throw new SigningIdentityError(
      `${source} holds no unencrypted RSA private key in PEM (BEGIN PRIVATE KEY or BEGIN RSA PRIVATE KEY)`,
    );
  }
  try {
    return forge.pki.privateKeyFromPem(block) as forge.pki.rsa.PrivateKey;
  } catch {
    throw new SigningIdentityError(
      `${source} is not a readable RSA private key (only RSA keys can sign here)`,
    );
  }
}

function matches(key: forge.pki.rsa.PrivateKey, certificate: forge.pki.Certificate): boolean {
  const publicKey = certificate.publicKey as forge.pki.rsa.PublicKey;
  return (
    publicKey.n !== undefined && key.n.compareTo(publicKey.n) === 0 && key.e.compareTo(publicKey.e) === 0
  );
}

/** The identity of a key and its certificate (the one that matches the key first), checked. */
function identityOf(
  certPem: string,
  keyPem: string,
  sources: { cert: string; key: string },
): SigningIdentity {
  const certificates = certificatesOf(certPem, sources.cert);
  const key = privateKeyOf(keyPem, sources.key);
  const own = certificates.find(({ certificate }) => matches(key, certificate));
  if (!own) {
    throw new SigningIdentityError(
      `${sources.key} is not the private key of ${sources.cert}: give the key the certificate was issued for`,
    );
  }
  const now = new Date();
  const notAfter = own.certificate.validity.notAfter;
  if (notAfter < now) {
    throw new SigningIdentityError(`${sources.cert} expired on ${notAfter.toISOString()}: renew it`);
  }
  const chain = [own, ...certificates.filter((entry) => entry !== own)];
  const p12 = forge.pkcs12.toPkcs12Asn1(
    key,
    chain.map((entry) => entry.certificate),
    '',
    { algorithm: 'aes256' },
  );
  return {
    // The PEM blocks as given, not as forge would write them again: the bytes their issuer signed.
    certificatePem: `${chain.map((entry) => entry.pem).join('\n')}\n`,
    p12: Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'),
  };
}

/** A self-signed certificate naming the brokerage, for signing documents only. */
function selfSigned(brokerageName: string): { certPem: string; keyPem: string } {
  // Node's key generation: forge's own, in JavaScript, takes seconds for a 2048-bit key.
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // A positive serial number of 16 random bytes: the high bit cleared, the first byte not zero.
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x3f) | 0x40;
  certificate.serialNumber = serial.toString('hex');
  const notBefore = new Date();
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + GENERATED_VALIDITY_YEARS);
  certificate.validity.notBefore = notBefore;
  certificate.validity.notAfter = notAfter;
  // UTF8String (forge encodes the value): a brokerage's name may be "Réalty", which forge's
  // default PrintableString cannot hold. @types/node-forge types this field as a class, wrongly.
  const utf8 = (value: string) => ({
    value,
    valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class,
  });
  const name = [
    { name: 'commonName', ...utf8(`${[...brokerageName].slice(0, 40).join('')} e-signature`) },
    { name: 'organizationName', ...utf8([...brokerageName].slice(0, 64).join('')) },
  ];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(key, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(certificate), keyPem };
}

/**
 * SIGNING_CERT + SIGNING_KEY (PEM strings) when both are set; else a self-signed certificate
 * generated once into DATA_DIR and reused on every later start, as the JWT secret is.
 */
export async function loadSigningIdentity(options: {
  certPem?: string;
  keyPem?: string;
  dataDir: string;
  brokerageName: string;
}): Promise<SigningIdentity> {
  if (options.certPem || options.keyPem) {
    if (!options.certPem || !options.keyPem) {
      throw new SigningIdentityError('SIGNING_CERT and SIGNING_KEY are set together or not at all');
    }
    return identityOf(pemOf(options.certPem), pemOf(options.keyPem), {
      cert: 'SIGNING_CERT',
      key: 'SIGNING_KEY',
    });
  }
  const file = path.join(options.dataDir, GENERATED_IDENTITY_FILE);
  const kept = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (kept !== null) {
    // A damaged file is reported rather than replaced: documents already signed name its certificate.
    const sources = {
      cert: `${file} (remove it to generate a new certificate)`,
      key: `${file} (remove it to generate a new key)`,
    };
    return identityOf(kept, kept, sources);
  }
  const generated = selfSigned(options.brokerageName);
  await mkdir(options.dataDir, { recursive: true });
  // Written whole under another name, then renamed: a crash never leaves half a key behind.
  const partial = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(partial, `${generated.certPem}${generated.keyPem}`, { mode: 0o600 });
  await rename(partial, file);
  return identityOf(generated.certPem, generated.keyPem, { cert: file, key: file });
}
