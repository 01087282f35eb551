import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { storageSources } from './app';
import { loggerOptions } from './logger';
import { buildTestApp, setupTestDatabase, testConfig, testDeps } from './test/harness';
import { captureLogs } from './test/log-capture';
import { publicProcedure, router } from './trpc/init';

const database = setupTestDatabase();
let app: FastifyInstance;
let clientDir: string;

beforeAll(async () => {
  // A stand-in for dist/client with the shape Vite gives it.
  clientDir = await mkdtemp(path.join(tmpdir(), 'portal-client-'));
  await mkdir(path.join(clientDir, 'assets'));
  await writeFile(
    path.join(clientDir, 'index.html'),
    '<!doctype html><title>Brokerage Portal</title><div id="root"></div>',
  );
  await writeFile(
    path.join(clientDir, 'sign.html'),
    '<!doctype html><title>Brokerage Portal</title><div id="root"></div><!-- signing -->',
  );
  await writeFile(path.join(clientDir, 'assets', 'index-abc123.js'), 'console.log("app")');
  await writeFile(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  app = buildTestApp(testDeps(database.db), { clientDir });
});
afterAll(() => app.close());

describe('health', () => {
  test('/healthz says the process is up; /readyz that the database answers', async () => {
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: 'up' });
  });
});

describe('request lines', () => {
  /** The lines one plain request writes at this LOG_LEVEL. */
  async function linesOfOneRequest(level: string) {
    const log = captureLogs(loggerOptions(level));
    const logged = buildTestApp(testDeps(database.db), { loggerInstance: log.logger });
    try {
      await logged.ready();
      const before = log.lines.length;
      const res = await logged.inject({
        url: '/healthz?token=secret-token',
        headers: { 'x-request-id': 'req-42' },
      });
      expect(res.statusCode).toBe(200);
      return log.entries().slice(before);
    } finally {
      await logged.close();
    }
  }

  test('at info a request that went well writes no line; at debug one, with its method, URL, status and time', async () => {
    expect(await linesOfOneRequest('info')).toEqual([]);
    const [line, ...more] = await linesOfOneRequest('debug');
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 20,
      requestId: 'req-42',
      msg: 'request completed',
      req: { method: 'GET', url: '/healthz?token=%5Bredacted%5D' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });
});

describe('serving the client', () => {
  test('/ and every client route get index.html, revalidated on each visit', async () => {
    for (const url of [
      '/',
      '/home',
      '/auth/login',
      '/home/transactions/123?tab=docs',
      '/no/such/page',
      // A dot in a route is not a file: e-mail addresses appear in the verification page's path.
      '/auth/verification/register/dana@example.com',
      '/auth/verification/reset/first.last%40example.co.uk',
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  test('hashed assets are cached for a year; other files are revalidated', async () => {
    const asset = await app.inject('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const favicon = await app.inject('/favicon.svg');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['cache-control']).toBe('no-cache');
  });

  test("a signer's link gets the build's signing page; every other route index.html", async () => {
    const link = await app.inject('/sign/a-token_9?x=1');
    expect(link.statusCode).toBe(200);
    expect(link.headers['cache-control']).toBe('no-cache');
    expect(link.body).toContain('<!-- signing -->');
    for (const url of ['/home', '/sign', '/signing/x', '/auth/login?next=/sign/x']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('<!-- signing -->');
    }
  });

  test('a missing file is a 404, not the client', async () => {
    for (const url of [
      '/assets/missing-999.js',
      '/assets/whatever',
      '/robots.txt',
      '/logo.png',
      '/old.css.map',
    ]) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND', error: 'not-found' });
    }
  });

  test('unknown /api, /trpc and /files paths are JSON 404s, for any method', async () => {
    for (const [method, url] of [
      ['GET', '/api'],
      ['GET', '/api/transactions/unknown/path/here'],
      ['POST', '/api/nothing'],
      ['GET', '/files/forms/nothing.pdf'],
      ['DELETE', '/trpc'],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND', error: 'not-found' });
    }
  });

  test('a non-GET request to a client path is a 404, not the page', async () => {
    const res = await app.inject({ method: 'POST', url: '/home' });
    expect(res.statusCode).toBe(404);
  });

  test('without a built client the server still answers, with JSON 404s', async () => {
    const bare = buildTestApp(testDeps(database.db), { clientDir: null });
    expect((await bare.inject('/')).statusCode).toBe(404);
    expect((await bare.inject('/healthz')).statusCode).toBe(200);
    await bare.close();
  });
});

describe('security headers', () => {
  test('every answer carries the CSP and the other protective headers', async () => {
    for (const url of ['/', '/healthz', '/api/missing', '/assets/index-abc123.js']) {
      const res = await app.inject(url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    }
  });

  test('over plain http there is no HSTS and no upgrade-insecure-requests; over https both', async () => {
    const plain = await app.inject('/');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(String(plain.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');

    const secure = buildTestApp(
      testDeps(database.db, { config: testConfig({ appUrl: 'https://portal.example.com' }) }),
    );
    const res = await secure.inject('/healthz');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    await secure.close();
  });

  test('stored files on S3 may be fetched and shown from the bucket; local files need nothing more', async () => {
    const s3 = {
      driver: 's3',
      endpoint: 'http://minio:9000',
      publicEndpoint: 'https://files.example.com',
      bucket: 'portal',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    } as const;
    expect(storageSources({ driver: 'local' })).toEqual([]);
    expect(storageSources(s3)).toEqual(['https://files.example.com']);
    expect(storageSources({ ...s3, publicEndpoint: undefined })).toEqual(['http://minio:9000']);
    expect(storageSources({ ...s3, forcePathStyle: false })).toEqual([
      'https://files.example.com',
      'https://portal.files.example.com',
    ]);
    expect(storageSources({ ...s3, endpoint: undefined, publicEndpoint: undefined })).toEqual([
      'https://*.amazonaws.com',
    ]);

    const local = String((await app.inject('/')).headers['content-security-policy']);
    expect(local).toContain("connect-src 'self';");
    expect(local).toContain("img-src 'self' data: blob:;");
    const onS3 = buildTestApp(testDeps(database.db, { config: testConfig({ storage: s3 }) }));
    const csp = String((await onS3.inject('/healthz')).headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self' https://files.example.com");
    expect(csp).toContain("img-src 'self' data: blob: https://files.example.com");
    expect(csp).toContain("script-src 'self';");
    await onS3.close();
  });

  test('API answers are never cached; there is no CORS unless configured', async () => {
    for (const url of ['/api/openapi.json', '/api/missing', '/trpc/missing']) {
      const res = await app.inject({ url, headers: { origin: 'https://evil.example' } });
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});

describe('API documentation', () => {
  test('/api/openapi.json is an OpenAPI 3.1 document with bearer authentication: sessions and API keys', async () => {
    const res = await app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Brokerage Portal API');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    // An API key travels in the same header, told apart by its prefix.
    expect(doc.components.securitySchemes.apiKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'bpk_<id>_<secret>',
    });
    // Only the documented table: no health checks, docs pages or tRPC in it.
    // Every path is under /api/, but the calendar feed, whose address calendar apps already poll.
    for (const pathName of Object.keys(doc.paths))
      expect(pathName).toMatch(/^\/api\/|^\/calendar\/\{file\}$/);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/unsubscribe/{token}', '/calendar/{file}']),
    );
  });

  test('/api/docs serves the documentation page from this server only', async () => {
    const res = await app.inject('/api/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
    expect(res.body).not.toMatch(/https?:\/\/(?!localhost)[a-z0-9.-]+\/[^"']*\.(js|css)/i);
  });
});

describe('rate limit', () => {
  test('API calls over RATE_LIMIT_PER_MIN answer 429 in the error shape; health checks are exempt', async () => {
    const limited = buildTestApp(testDeps(database.db, { config: testConfig({ rateLimitPerMin: 3 }) }));
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await limited.inject('/api/openapi.json')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const res = await limited.inject('/api/openapi.json');
    expect(res.json()).toEqual({
      message: 'Too many requests. Please try again later.',
      code: 'TOO_MANY_REQUESTS',
      error: 'rate-limited',
    });
    for (let i = 0; i < 5; i++) expect((await limited.inject('/healthz')).statusCode).toBe(200);
    await limited.close();
  });

  test('tRPC queries count too, though the fast path answers them without the adapter', async () => {
    const limited = buildTestApp(testDeps(database.db, { config: testConfig({ rateLimitPerMin: 3 }) }));
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await limited.inject('/trpc/templates.all')).statusCode);
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
    await limited.close();
  });
});

describe('shutdown', () => {
  test('close() lets an in-flight request finish, then refuses new connections', async () => {
    const slowRouter = router({
      slow: publicProcedure.query(async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return 'finished';
      }),
    });
    const server = buildTestApp(testDeps(database.db), { api: { router: slowRouter } });
    await server.listen({ port: 0, host: '127.0.0.1' });
    const address = server.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    const inFlight = fetch(`${base}/trpc/slow`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = server.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: { data: 'finished' } });
    await closing;
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});

describe('requests the HTTP parser refuses', () => {
  /** Writes raw bytes to a listening app and reads the answer until the server closes. */
  async function rawExchange(request: string): Promise<{ status: number; headers: string; body: string }> {
    const { connect } = await import('node:net');
    const server = buildTestApp(testDeps(database.db));
    await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = server.server.address() as { port: number };
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request));
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString('latin1');
        });
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
      });
      const [head = '', body = ''] = text.split('\r\n\r\n');
      return { status: Number(head.split(' ')[1]), headers: head, body };
    } finally {
      await server.close();
    }
  }

  test('a request line over 16 KiB answers 431 with the documented error body', async () => {
    const path = `/trpc/transactions.list.${'a'.repeat(20_000)}`;
    const answer = await rawExchange(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(answer.body)).toEqual({
      message: 'The request line and headers are too large',
      code: 'HEADERS_TOO_LARGE',
      error: 'headers-too-large',
    });
  });

  test('bytes that are not HTTP answer 400 with the documented error body', async () => {
    const answer = await rawExchange('NOT HTTP AT ALL\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      message: 'The request is not valid HTTP',
      code: 'BAD_REQUEST',
      error: 'validation',
    });
  });
});
