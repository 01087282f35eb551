import { describe, expect, test } from 'vitest';
import { isValidKey, keyFromLink, safeFileName, transactionFileKey } from './keys';

const T = '6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const U = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const transactionKey = `transactions/${T}/${U}-My-Contract.pdf`;
const formKey = `forms/${U}-Buyer-Checklist.pdf`;
const amzQuery =
  'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20261121%2Fus-east-1%2Fs3%2Faws4_request' +
  '&X-Amz-Date=20261121T120000Z&X-Amz-Expires=3600&X-Amz-Signature=abc&X-Amz-SignedHeaders=host' +
  '&response-content-disposition=inline%3B%20filename%3D%22My-Contract.pdf%22';

describe('keyFromLink', () => {
  test('the bare key, the /files path and the absolute link of the local driver', () => {
    expect(keyFromLink(transactionKey)).toBe(transactionKey);
    expect(keyFromLink(` ${formKey} `)).toBe(formKey);
    expect(keyFromLink(`/files/${transactionKey}?exp=1800000000&sig=abc`)).toBe(transactionKey);
    expect(keyFromLink(`http://localhost:3000/files/${formKey}?exp=1&sig=x`)).toBe(formKey);
    expect(keyFromLink(`https://portal.example.com/files/${transactionKey.replaceAll('-', '%2D')}`)).toBe(
      transactionKey,
    );
  });

  test('presigned S3 URLs: path-style (bucket first) and virtual-hosted, with their query string', () => {
    expect(keyFromLink(`http://localhost:9000/portal-files/${transactionKey}?${amzQuery}`)).toBe(
      transactionKey,
    );
    expect(keyFromLink(`https://portal-files.s3.eu-west-1.amazonaws.com/${formKey}?${amzQuery}`)).toBe(
      formKey,
    );
    expect(keyFromLink(`https://s3.amazonaws.com/portal-files/${formKey}`)).toBe(formKey);
    // Buckets named like a key's first segment are still told apart from the key.
    expect(keyFromLink(`http://minio:9000/forms/${formKey}?${amzQuery}`)).toBe(formKey);
    expect(keyFromLink(`http://minio:9000/transactions/${transactionKey}?${amzQuery}`)).toBe(transactionKey);
    expect(keyFromLink(`http://minio:9000/files/${transactionKey}?${amzQuery}`)).toBe(transactionKey);
  });

  test('links that name no key give nothing the callers accept', () => {
    for (const link of [
      '',
      'https://evil.example/x.pdf',
      `https://evil.example/a/b/${formKey}`,
      `http://minio:9000/portal-files/transactions/${T}/../${U}-x.pdf`,
      `/files/${formKey.replace('forms/', 'forms/%E0%A4%A')}`,
      'javascript:alert(1)',
      `ftp://host/portal-files/${formKey}`,
      `http://[::1/${formKey}`,
    ]) {
      expect(isValidKey(keyFromLink(link)), link).toBe(false);
    }
  });
});

describe('safeFileName', () => {
  test('keeps letters, digits, dot, dash and underscore, with the sniffed extension', () => {
    expect(safeFileName('My Contract (signed).PDF', 'pdf')).toBe('My-Contract-signed.pdf');
    expect(safeFileName('../../etc/passwd', 'pdf')).toBe('passwd.pdf');
    expect(safeFileName('', 'png')).toBe('file.png');
  });

  test('a name with dots in a row still makes a key the storage accepts', () => {
    expect(safeFileName('report..final.pdf', 'pdf')).toBe('report.final.pdf');
    expect(isValidKey(transactionFileKey(T, 'Inspection Report .. 2026-12-02.pdf', 'pdf'))).toBe(true);
  });
});
