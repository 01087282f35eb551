import { describe, expect, test } from 'vitest';
import { isServerPath } from './client';

describe('isServerPath', () => {
  test('the API, tRPC and file paths, with or without a query string; nothing else', () => {
    const server = [
      '/api',
      '/api/',
      '/api/transactions/1?page=2',
      '/trpc',
      '/trpc?batch=1',
      '/files/x.pdf?sig=1',
    ];
    const other = [
      '/',
      '/apis',
      '/api-docs',
      '/trpcx/y',
      '/home?next=/api/x',
      '/filesystem',
      '/assets/api/x.js',
      '',
    ];
    for (const url of server) expect(isServerPath(url), url).toBe(true);
    for (const url of other) expect(isServerPath(url), url).toBe(false);
  });
});
