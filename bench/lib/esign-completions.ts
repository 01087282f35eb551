import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { PDFDocument } from 'pdf-lib';
import { loadSigningIdentity } from '../../server/services/esign/identity';
import { type CertificateFacts, type PlacedValue, signedDocument } from '../../server/services/esign/pdf';

/**
 * The process bench/esign.bench.ts measures: it holds the document and does one step per line
 * read on stdin ("small", "baseline" or "sign"), answering each with a JSON line {ms} on stdout, so the
 * benchmark reads this process's RSS from /proc while a step runs, undisturbed by its own work.
 * Arguments: the input PDF, a file of the values (JSON), the DATA_DIR of the signing identity.
 */

type Input = {
  values: PlacedValue[];
  certificate: Omit<CertificateFacts, 'completedAt'> & { completedAt: string };
};

async function main() {
  const [pdfFile, inputFile, dataDir] = process.argv.slice(2);
  if (!pdfFile || !inputFile || !dataDir)
    throw new Error('usage: esign-completions <pdf> <input.json> <dataDir>');
  const pdf = new Uint8Array(await readFile(pdfFile));
  const input = JSON.parse(await readFile(inputFile, 'utf8')) as Input;
  const certificate = {
    ...input.certificate,
    completedAt: new Date(input.certificate.completedAt),
    signers: input.certificate.signers.map((signer) => ({
      ...signer,
      viewedAt: signer.viewedAt ? new Date(signer.viewedAt) : null,
      signedAt: new Date(signer.signedAt),
    })),
  };
  const identity = await loadSigningIdentity({ dataDir, brokerageName: 'Harbor Realty' });
  const onePage = await PDFDocument.create();
  onePage.addPage([612, 792]);
  const small = await onePage.save();
  const steps: Record<string, () => Promise<number>> = {
    // A one-page completion: the code (fonts' metrics, forge, pdf-lib) loaded, as in a running server.
    small: async () => {
      const values = input.values.map((value) => ({ ...value, page: 1 }));
      return (await signedDocument({ pdf: small, values, certificate, identity })).length;
    },
    // What any change of the document costs at the least: pdf-lib's parse and a save as signing saves.
    baseline: async () => (await (await PDFDocument.load(pdf)).save({ useObjectStreams: false })).length,
    sign: async () => (await signedDocument({ pdf, values: input.values, certificate, identity })).length,
  };
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    const step = steps[line.trim()];
    if (!step) throw new Error(`unknown step ${line}`);
    const began = performance.now();
    const bytes = await step();
    process.stdout.write(`${JSON.stringify({ ms: performance.now() - began, bytes })}\n`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
