// REPLACED BY THE esign-pdf BRANCH
/**
 * The instance's signing identity. This placeholder carries no certificate: the real one (from
 * SIGNING_CERT and SIGNING_KEY, or generated once into DATA_DIR) comes with the PDF signing code.
 */
export type SigningIdentity = { certificatePem: string; p12: Buffer };

export async function loadSigningIdentity(_options: {
  certPem?: string;
  keyPem?: string;
  dataDir: string;
  brokerageName: string;
}): Promise<SigningIdentity> {
  return { certificatePem: '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n', p12: Buffer.alloc(0) };
}
