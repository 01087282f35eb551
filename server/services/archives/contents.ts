import { ACCEPTED_FILE_TYPES } from '../../../shared/file-types';
import type { Db } from '../../db/client';
import { downloadName } from '../../storage/keys';

/**
 * What a closed file's archive holds, read from the database: every accepted version of every
 * item and the CDAs' PDFs, each with a readable path of its own under documents/.
 */

export type ArchivedDocument = {
  /** The entry's path in the zip: documents/... */
  path: string;
  /** What the contents page of file.pdf calls it. */
  title: string;
  key: string;
  contentType: string;
  size: number;
};

/** Letters, digits, dot, dash and underscore: a folder name any unzip tool writes as it is. */
function slug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/\.{2,}/g, '.')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 60) || 'item'
  );
}

const extensionOf = (contentType: string) =>
  ACCEPTED_FILE_TYPES.find((type) => type.mime === contentType)?.ext ?? 'bin';

/** A name ending in the file's own extension (the key's, made from the upload's name, may lack it). */
function fileName(key: string, contentType: string): string {
  const name = downloadName(key);
  const extension = extensionOf(contentType);
  return name.toLowerCase().endsWith(`.${extension}`) ? name : `${name}.${extension}`;
}

export async function archivedDocuments(db: Db, transactionId: string): Promise<ArchivedDocument[]> {
  const versions = await db.formVersion.findMany({
    where: { decisionStatus: 'accepted', form: { transactionId } },
    select: {
      number: true,
      fileKey: true,
      contentType: true,
      size: true,
      form: { select: { label: true, position: true } },
    },
    orderBy: [{ form: { position: 'asc' } }, { number: 'asc' }],
  });
  const cdas = await db.cda.findMany({
    where: { transactionId },
    select: { version: true, pdfKey: true },
    orderBy: { version: 'asc' },
  });
  const width = String(Math.max(1, ...versions.map((v) => v.form.position + 1))).length;
  // Position and version make every path unique, however items are labelled.
  const documents: ArchivedDocument[] = versions.map((version) => {
    const folder = `${String(version.form.position + 1).padStart(width, '0')}-${slug(version.form.label)}`;
    return {
      path: `documents/${folder}/v${version.number}-${fileName(version.fileKey, version.contentType)}`,
      title: `${version.form.label}, version ${version.number}`,
      key: version.fileKey,
      contentType: version.contentType,
      size: version.size,
    };
  });
  for (const cda of cdas) {
    documents.push({
      path: `documents/cda/CDA-v${cda.version}.pdf`,
      title: `Commission disbursement authorization, version ${cda.version}`,
      key: cda.pdfKey,
      contentType: 'application/pdf',
      size: 0,
    });
  }
  return documents;
}
