import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { poppler } from '../../test/poppler';
import { GENERATED_IDENTITY_FILE, loadSigningIdentity } from './identity';
import { signedDocument } from './pdf';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'esign-identity-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

type Issued = {
  certPem: string;
  keyPem: string;
  certificate: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
};

/** A brokerage's own certificate and key: self-signed, or issued by `issuer` (a CA of the test's). */
function issued(commonName: string, issuer?: Issued): Issued {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  certificate.serialNumber = '0badc0de';
  certificate.validity.notBefore = new Date(Date.now() - 60_000);
  certificate.validity.notAfter = new Date(Date.now() + 365 * 24 * 3600_000);
  const name = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'Harbor Realty LLC' },
  ];
  certificate.setSubject(name);
  certificate.setIssuer(issuer ? issuer.certificate.subject.attributes : name);
  if (!issuer) certificate.setExtensions([{ name: 'basicConstraints', cA: true }]);
  certificate.sign(issuer?.key ?? key, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(certificate), keyPem, certificate, key };
}

async function signedWith(identity: Awaited<ReturnType<typeof loadSigningIdentity>>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Listing agreement', { x: 54, y: 720 });
  const pdf = await doc.save();
  const now = new Date();
  return signedDocument({
    pdf,
    values: [],
    certificate: {
      subject: 'Listing agreement',
      documentSha256: '0'.repeat(64),
      completedAt: now,
      signers: [],
    },
    identity,
  });
}

describe('loadSigningIdentity', () => {
  test('without SIGNING_CERT/KEY: generated once into DATA_DIR, the same on the next start', async () => {
    const first = await loadSigningIdentity({ dataDir, brokerageName: 'Harbor Réalty' });
    const file = path.join(dataDir, GENERATED_IDENTITY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const kept = await readFile(file, 'utf8');
    const second = await loadSigningIdentity({ dataDir, brokerageName: 'Another Name' });
    expect(second.certificatePem).toBe(first.certificatePem);
    expect(await readFile(file, 'utf8')).toBe(kept);
    const certificate = new X509Certificate(first.certificatePem);
    expect(certificate.subject).toContain('CN=Harbor Réalty e-signature');
    const report = await poppler('pdfsig', await signedWith(second));
    expect(report).toContain('Signature is Valid');
    expect(report).toContain('Signer Certificate Common Name: Harbor Réalty e-signature');
  });

  test('SIGNING_CERT and SIGNING_KEY are used when given, also with literal \\n line breaks', async () => {
    const own = issued('Harbor Realty Document Signing');
    const identity = await loadSigningIdentity({
      certPem: own.certPem.replaceAll('\n', '\\n'),
      keyPem: own.keyPem.replaceAll('\n', '\\n'),
      dataDir,
      brokerageName: 'Harbor Realty',
    });
    expect(new X509Certificate(identity.certificatePem).fingerprint256).toBe(
      new X509Certificate(own.certPem).fingerprint256,
    );
    const report = await poppler('pdfsig', await signedWith(identity));
    expect(report).toContain('Signature is Valid');
    expect(report).toContain('Signer Certificate Common Name: Harbor Realty Document Signing');
    // Nothing is generated when the brokerage brings its own.
    await expect(stat(path.join(dataDir, GENERATED_IDENTITY_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('a certificate with its chain, in either order: the one the key belongs to signs, the chain rides along', async () => {
    const ca = issued('Harbor Test CA');
    const leaf = issued('Harbor Realty Closing Desk', ca);
    const identity = await loadSigningIdentity({
      certPem: `${ca.certPem}${leaf.certPem}`,
      keyPem: leaf.keyPem,
      dataDir,
      brokerageName: 'Harbor Realty',
    });
    const [first] =
      identity.certificatePem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    expect(new X509Certificate(first ?? '').subject).toContain('CN=Harbor Realty Closing Desk');
    const report = await poppler('pdfsig', await signedWith(identity));
    expect(report).toContain('Signature is Valid');
    expect(report).toContain('Signer Certificate Common Name: Harbor Realty Closing Desk');
  });

  test('a key that is not the certificate’s, half a pair, or a damaged kept file: a clear error', async () => {
    const one = issued('One');
    const other = issued('Other');
    await expect(
      loadSigningIdentity({ certPem: one.certPem, keyPem: other.keyPem, dataDir, brokerageName: 'B' }),
    ).rejects.toThrow('SIGNING_KEY is not the private key of SIGNING_CERT');
    await expect(loadSigningIdentity({ certPem: one.certPem, dataDir, brokerageName: 'B' })).rejects.toThrow(
      'SIGNING_CERT and SIGNING_KEY are set together or not at all',
    );
    await expect(
      loadSigningIdentity({ certPem: 'not a certificate', keyPem: one.keyPem, dataDir, brokerageName: 'B' }),
    ).rejects.toThrow('SIGNING_CERT holds no PEM certificate');
    await writeFile(path.join(dataDir, GENERATED_IDENTITY_FILE), 'damaged');
    await expect(loadSigningIdentity({ dataDir, brokerageName: 'B' })).rejects.toThrow(
      /signing-identity\.pem \(remove it to generate a new certificate\) holds no PEM certificate/,
    );
  });
});
