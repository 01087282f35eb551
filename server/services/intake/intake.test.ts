import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intakeMessages } from '../../../shared/messages';
import type { AppDeps } from '../../deps';
import { injectUpload } from '../../test/api-calls';
import { accessTokenFor, createTransaction, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TEST_DATA_DIR, TestClock, testDeps } from '../../test/harness';
import { multipartPayload } from '../../test/hostile-inputs';
import { bombPdf, encryptedPdf, pdfOf, photoJpeg, truncated } from '../../test/intake-files';

/**
 * Document intake through the real endpoints: the pre-checks of an
 * upload, the photos-to-PDF route and the packet split, on files made by the tests.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let deps: AppDeps;
let app: FastifyInstance;
let agent: { id: string; token: string };
let stranger: { id: string; token: string };

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  await app.ready();
  const agentRow = await createUser(database.db);
  agent = { id: agentRow.id, token: await accessTokenFor(agentRow, { now: clock.now() }) };
  const strangerRow = await createUser(database.db);
  stranger = { id: strangerRow.id, token: await accessTokenFor(strangerRow, { now: clock.now() }) };
});
afterAll(() => app.close());

const LABELS = [
  'Residential Purchase Agreement',
  'Agency Disclosure',
  'Wire Fraud Advisory',
  'Closing Disclosure',
];
const purchase = () => createTransaction(database.db, { userId: agent.id, documents: LABELS });

const upload = (transactionId: string, file: Buffer, token = agent.token) =>
  injectUpload(app, `/api/uploads/transactions/${transactionId}`, token, file);

function uploadPhotos(transactionId: string, photos: Buffer[], token = agent.token, query = '') {
  const { payload, contentType } = multipartPayload({
    newline: '\r\n',
    boundary: 'photos-boundary',
    parts: photos.map((content, index) => ({
      name: 'file',
      filename: `photo-${index + 1}.jpg`,
      contentType: 'image/jpeg',
      content,
    })),
    closing: true,
    truncateAt: null,
    header: 'ok',
  });
  return app.inject({
    method: 'POST',
    url: `/api/uploads/transactions/${transactionId}/images${query}`,
    payload,
    headers: { 'content-type': contentType ?? '', authorization: `Bearer ${token}` },
  });
}

const api = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token = agent.token) =>
  app.inject({ method, url, payload: body as object, headers: { authorization: `Bearer ${token}` } });

const storedCount = (transactionId: string) => database.db.storedFile.count({ where: { transactionId } });
const filesOf = (transactionId: string) =>
  readdir(path.join(TEST_DATA_DIR, 'uploads', 'transactions', transactionId)).catch(() => [] as string[]);

describe('pre-checks of an upload', () => {
  it('counts pages, unsigned signature fields and blank pages, and suggests the item by its title', async () => {
    const transaction = await purchase();
    const pdf = await pdfOf(
      [
        {
          text: ['Residential Purchase Agreement', 'Buyer offers to purchase the property described below.'],
        },
        { blank: true },
        { text: ['Page 3 of the agreement', 'See the Agency Disclosure given to Buyer.'] },
        { blank: true },
      ],
      [
        { page: 3, signed: false },
        { page: 3, signed: true },
        { page: 3, signed: false },
      ],
    );
    const res = await upload(transaction.id, pdf);
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer.pages).toBe(4);
    expect(answer.warnings).toEqual([
      { code: 'empty-signature-fields', message: '2 signature fields are not signed' },
      { code: 'blank-pages', message: 'Pages 2, 4 look blank', pages: [2, 4] },
    ]);
    const [first, ...rest] = answer.suggestions;
    expect(first).toMatchObject({
      formId: transaction.forms[0]?.id,
      label: 'Residential Purchase Agreement',
    });
    expect(first.score).toBeGreaterThanOrEqual(0.9);
    // The body names another document: a weaker suggestion, never above the title.
    expect(rest.map((s: { label: string }) => s.label)).toContain('Agency Disclosure');
    expect(rest.every((s: { score: number }) => s.score < first.score)).toBe(true);

    const row = await database.db.storedFile.findUniqueOrThrow({ where: { key: answer.key } });
    expect(row.pages).toBe(4);
    expect(row.warnings).toEqual(answer.warnings);
  });

  it('says a single finding in the singular, and nothing for a clean signed document', async () => {
    const transaction = await purchase();
    const one = await upload(
      transaction.id,
      await pdfOf([{ text: ['Agency Disclosure'] }, { blank: true }], [{ page: 1, signed: false }]),
    );
    expect(one.json().warnings).toEqual([
      { code: 'empty-signature-fields', message: '1 signature field is not signed' },
      { code: 'blank-pages', message: 'Page 2 looks blank', pages: [2] },
    ]);
    const clean = await upload(
      transaction.id,
      await pdfOf([{ text: ['Agency Disclosure'] }], [{ page: 1, signed: true }]),
    );
    expect(clean.json()).toMatchObject({ pages: 1, warnings: [] });
  });

  it('recognises a scanned empty sheet as blank, and a scanned page of print as not', async () => {
    const transaction = await purchase();
    const res = await upload(
      transaction.id,
      await pdfOf([{ scan: 'printed' }, { scan: 'empty' }, { scan: 'printed' }]),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().warnings).toEqual([{ code: 'blank-pages', message: 'Page 2 looks blank', pages: [2] }]);
    // Scans carry no text: nothing to suggest.
    expect(res.json().suggestions).toEqual([]);
  });

  it('refuses an encrypted PDF with its documented message, keeping neither file nor row', async () => {
    const transaction = await purchase();
    const res = await upload(transaction.id, await encryptedPdf());
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This PDF is password-protected: upload an unlocked copy');
    expect(await storedCount(transaction.id)).toBe(0);
    expect(await filesOf(transaction.id)).toEqual([]);
  });

  it('refuses a decompression bomb with 400, keeping nothing', async () => {
    const transaction = await purchase();
    const bomb = bombPdf();
    expect(bomb.length).toBeLessThan(200_000);
    const res = await upload(transaction.id, bomb);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(intakeMessages.hostilePdf);
    expect(await storedCount(transaction.id)).toBe(0);
  });

  it('keeps the warnings with the version and the item, adding a duplicate of another item when attached', async () => {
    const transaction = await purchase();
    const [agreement, disclosure] = transaction.forms;
    if (!agreement || !disclosure) throw new Error('no forms');
    const pdf = await pdfOf([{ text: ['Agency Disclosure'] }, { blank: true }]);
    const first = (await upload(transaction.id, pdf)).json();
    const put = (formId: string, url: string) =>
      api('PUT', `/api/transactions/${transaction.id}/forms/${formId}`, { url });
    expect((await put(disclosure.id, first.key)).json().warnings).toEqual([
      { code: 'blank-pages', message: 'Page 2 looks blank', pages: [2] },
    ]);

    // The same bytes again: the answer names the item that already has them...
    const second = (await upload(transaction.id, pdf)).json();
    expect(second.duplicateOf).toEqual({ formId: disclosure.id, label: 'Agency Disclosure' });
    expect(second.warnings).toContainEqual({
      code: 'duplicate',
      message: 'The same file is already attached to "Agency Disclosure"',
    });
    // ...and attached to another item, its version and the item say so to the reviewer.
    const item = (await put(agreement.id, second.key)).json();
    expect(item.pages).toBe(2);
    expect(item.warnings).toEqual([
      { code: 'blank-pages', message: 'Page 2 looks blank', pages: [2] },
      { code: 'duplicate', message: 'The same file is already attached to "Agency Disclosure"' },
    ]);
    const versions = (
      await api('GET', `/api/transactions/${transaction.id}/forms/${agreement.id}/versions`)
    ).json();
    expect(versions.versions[0]).toMatchObject({ number: 1, pages: 2, warnings: item.warnings });
    // The same file attached again to its own item is no duplicate of itself.
    const again = (await upload(transaction.id, await pdfOf([{ text: ['Closing Disclosure'] }]))).json();
    const closing = transaction.forms[3];
    if (!closing) throw new Error('no form');
    expect((await put(closing.id, again.key)).json().warnings).toEqual([]);
  });

  it('keeps a file whose first bytes only say PDF, with no page count and no warnings', async () => {
    const transaction = await purchase();
    const res = await upload(transaction.id, Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ pages: null, warnings: [], suggestions: [] });
  });
});

/** The images of a PDF's pages: each page's size and its one image's pixel size. */
async function pagesOf(bytes: Buffer) {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const xObjects = page.node.Resources()?.lookup(PDFName.of('XObject'));
    const [, ref] = (xObjects as unknown as { entries(): [unknown, unknown][] }).entries()[0] ?? [];
    const image = doc.context.lookup(ref as never) as PDFRawStream;
    const number = (name: string) => Number(image.dict.get(PDFName.of(name))?.toString());
    return {
      size: [Math.round(page.getWidth()), Math.round(page.getHeight())],
      image: { width: number('Width'), height: number('Height'), jpeg: Buffer.from(image.contents) },
    };
  });
}

describe('photos as one PDF', () => {
  it('makes a page per photo in order, upright by EXIF, at most 2,000 px, and answers as an upload', async () => {
    const transaction = await purchase();
    const photos = [
      await photoJpeg({ width: 1200, height: 1600 }),
      // Held sideways: stored 1600 x 1200 with orientation 6 (turn 90 degrees clockwise to view).
      await photoJpeg({ width: 1600, height: 1200, orientation: 6 }),
      // A 12 MP photo: scaled down to 2,000 px on its longest side.
      await photoJpeg({ width: 3000, height: 4000 }),
    ];
    const res = await uploadPhotos(transaction.id, photos);
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer).toMatchObject({ contentType: 'application/pdf', pages: 3, warnings: [], suggestions: [] });
    expect(answer.name).toMatch(/\.pdf$/);

    const opened = await deps.storage.open(answer.key);
    if (!opened) throw new Error('not stored');
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(chunk as Buffer);
    const pages = await pagesOf(Buffer.concat(chunks));
    expect(pages.map((page) => page.size)).toEqual([
      [612, 792],
      [612, 792],
      [612, 792],
    ]);
    expect(pages.map((page) => [page.image.width, page.image.height])).toEqual([
      [1200, 1600],
      [1200, 1600],
      [1500, 2000],
    ]);
    // The sideways photo's dark bar ran along its stored top edge; upright, it runs down the right.
    const turned = pages[1]?.image.jpeg;
    if (!turned) throw new Error('no page');
    // (sharp's stats() reads its input, not the pipeline's output: the pixels are counted here.)
    const meanOf = async (left: number) => {
      const strip = await sharp(turned)
        .extract({ left, top: 0, width: 60, height: 1600 })
        .greyscale()
        .raw()
        .toBuffer();
      return strip.reduce((sum, value) => sum + value, 0) / strip.length;
    };
    expect(await meanOf(1140)).toBeLessThan(80);
    expect(await meanOf(0)).toBeGreaterThan(200);
  });

  it('turns a landscape photo into a landscape page, and flags a photographed empty sheet as blank', async () => {
    const transaction = await purchase();
    const empty = await sharp({ create: { width: 1000, height: 1300, channels: 3, background: '#f4f4f2' } })
      .jpeg()
      .toBuffer();
    const res = await uploadPhotos(transaction.id, [await photoJpeg({ width: 1600, height: 1000 }), empty]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().warnings).toEqual([{ code: 'blank-pages', message: 'Page 2 looks blank', pages: [2] }]);
  });

  it('names the photo that cannot be read, refuses other types and counts, and keeps nothing', async () => {
    const transaction = await purchase();
    const good = await photoJpeg();
    const cut = await uploadPhotos(transaction.id, [good, truncated(await photoJpeg({ quality: 95 }))]);
    expect(cut.statusCode).toBe(400);
    expect(cut.json().message).toBe('Photo 2 could not be read: send JPEG, PNG or WebP photos');

    const pdf = await uploadPhotos(transaction.id, [await pdfOf([{ text: ['A PDF'] }])]);
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().message).toBe('Photo 1 is not a JPEG, PNG or WebP image');

    const many = await uploadPhotos(
      transaction.id,
      Array.from({ length: 31 }, () => good),
    );
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toBe('A document takes at most 30 photos');

    const none = await uploadPhotos(transaction.id, []);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(intakeMessages.imagesRequired);

    expect(await storedCount(transaction.id)).toBe(0);
    expect(await filesOf(transaction.id)).toEqual([]);
  });

  it('names the PDF as asked (the item and the day), made safe for a file name; photos.pdf without a name', async () => {
    const transaction = await purchase();
    const photo = await photoJpeg();
    const named = await uploadPhotos(
      transaction.id,
      [photo],
      agent.token,
      '?name=Inspection%20Report%2F..%202026-12-02',
    );
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json().name).toBe('Inspection-Report-.-2026-12-02.pdf');
    const plain = await uploadPhotos(transaction.id, [photo]);
    expect(plain.json().name).toBe('photos.pdf');
    const long = await uploadPhotos(transaction.id, [photo], agent.token, `?name=${'x'.repeat(121)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe("The name of the photos' PDF may be at most 120 characters");
    const twice = await uploadPhotos(transaction.id, [photo], agent.token, '?name=a&name=b');
    expect(twice.statusCode).toBe(400);
  });

  it('is the agent’s or an admin’s: another agent gets 404 before a byte is read', async () => {
    const transaction = await purchase();
    const res = await uploadPhotos(transaction.id, [await photoJpeg()], stranger.token);
    expect(res.statusCode).toBe(404);
  });
});

describe('packet split', () => {
  async function packetUpload() {
    const transaction = await purchase();
    const packet = await pdfOf(
      [
        { text: ['Residential Purchase Agreement', 'Page 1 of 2'] },
        { text: ['Residential Purchase Agreement, continued', 'Page 2 of 2'] },
        { text: ['Agency Disclosure'] },
        { text: ['Wire Fraud Advisory', 'Page 1 of 2'] },
        { text: ['Signatures'] },
        { scan: 'empty' },
      ],
      [
        { page: 5, signed: false },
        { page: 2, signed: true },
      ],
    );
    const answer = (await upload(transaction.id, packet)).json();
    expect(answer).toMatchObject({
      pages: 6,
      warnings: [{ code: 'empty-signature-fields' }, { code: 'blank-pages', pages: [6] }],
    });
    return { transaction, key: answer.key as string };
  }

  const split = (transactionId: string, body: unknown, token = agent.token) =>
    api('POST', `/api/transactions/${transactionId}/split`, body, token);

  it('attaches each part to its item as a new version, with its own pages and pre-checks', async () => {
    const { transaction, key } = await packetUpload();
    const [agreement, disclosure, advisory, closing] = transaction.forms;
    if (!agreement || !disclosure || !advisory || !closing) throw new Error('no forms');
    const before = await storedCount(transaction.id);
    const res = await split(transaction.id, {
      key,
      parts: [
        { formId: agreement.id, pages: '1-2' },
        { formId: disclosure.id, pages: '3' },
        { formId: advisory.id, pages: '6,4,5' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const forms = res.json().forms as Array<{
      _id: string;
      version: number;
      pages: number | null;
      warnings: unknown[];
    }>;
    const byId = new Map(forms.map((form) => [form._id, form]));
    expect(byId.get(agreement.id)).toMatchObject({ version: 1, pages: 2, warnings: [] });
    expect(byId.get(disclosure.id)).toMatchObject({ version: 1, pages: 1, warnings: [] });
    // The unsigned field of page 5 came along, form field and all; the packet's blank page 6 is
    // this part's page 1, as the packet's upload found it.
    expect(byId.get(advisory.id)).toMatchObject({
      version: 1,
      pages: 3,
      warnings: [
        { code: 'empty-signature-fields', message: '1 signature field is not signed' },
        { code: 'blank-pages', message: 'Page 1 looks blank', pages: [1] },
      ],
    });
    expect(byId.get(closing.id)).toMatchObject({ version: 0, pages: null });
    expect(await storedCount(transaction.id)).toBe(before + 3);
    expect(res.json().progress).toMatchObject({ awaitingReview: 3, missing: 1 });
  });

  it('refuses overlapping, out-of-range and repeated parts, and changes nothing', async () => {
    const { transaction, key } = await packetUpload();
    const [agreement, disclosure] = transaction.forms;
    if (!agreement || !disclosure) throw new Error('no forms');
    const before = await storedCount(transaction.id);
    const cases: Array<[unknown[], string]> = [
      [
        [
          { formId: agreement.id, pages: '1-2' },
          { formId: disclosure.id, pages: '2-3' },
        ],
        'Page 2 is in two parts',
      ],
      [[{ formId: agreement.id, pages: '4-7' }], 'Page 7 is out of range: the document has 6 pages'],
      [[{ formId: agreement.id, pages: '3-1' }], '3-1 is not a range of pages'],
      [
        [
          { formId: agreement.id, pages: '1' },
          { formId: agreement.id, pages: '2' },
        ],
        '"Residential Purchase Agreement" is given two parts: give each document one',
      ],
      [
        [{ formId: '00000000-0000-4000-8000-000000000000', pages: '1' }],
        'This document is not on the checklist of this transaction',
      ],
    ];
    for (const [parts, message] of cases) {
      const res = await split(transaction.id, { key, parts });
      expect(res.statusCode, JSON.stringify(parts)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await split(transaction.id, { key, parts: [] })).statusCode).toBe(400);
    expect(await storedCount(transaction.id)).toBe(before);
    const versions = await database.db.formVersion.count({
      where: { form: { transactionId: transaction.id } },
    });
    expect(versions).toBe(0);
  });

  it('cuts only a readable PDF of this transaction, on an open file, for its agent or an admin', async () => {
    const { transaction, key } = await packetUpload();
    const agreement = transaction.forms[0];
    if (!agreement) throw new Error('no forms');
    const parts = [{ formId: agreement.id, pages: '1' }];

    const photo = (await upload(transaction.id, await photoJpeg())).json();
    expect((await split(transaction.id, { key: photo.key, parts })).json().message).toBe(
      intakeMessages.splitNeedsPdf,
    );

    const other = await purchase();
    const foreign = (await upload(other.id, await pdfOf([{ text: ['x'] }]))).json();
    const res = await split(transaction.id, { key: foreign.key, parts });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This file was not uploaded to this transaction');

    expect((await split(transaction.id, { key, parts }, stranger.token)).statusCode).toBe(404);

    await database.db.transaction.update({ where: { id: transaction.id }, data: { closedAt: clock.now() } });
    const closed = await split(transaction.id, { key, parts });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe('This transaction is closed');
  });
});
