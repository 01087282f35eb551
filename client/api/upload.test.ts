import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionRefresher } from '../auth/refresh';
import { setSession } from '../auth/session';
import { uploadAnswer } from '../test-utils/transactions';
import { RestError } from './errors';
import { createUploader, transactionImagesPath, transactionUploadPath } from './upload';

type Answer = { status: number; body?: unknown; statusText?: string };

/**
 * A stand-in for XMLHttpRequest: records each request and answers from a queue, reporting
 * upload progress first, as a browser does.
 */
class FakeRequest {
  static sent: FakeRequest[] = [];
  static answers: Answer[] = [];
  static progress: [loaded: number, total: number][] = [];

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private contentType = '';

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  getResponseHeader(name: string) {
    return name.toLowerCase() === 'content-type' ? this.contentType : null;
  }
  send(body: unknown) {
    this.body = body;
    FakeRequest.sent.push(this);
    const answer = FakeRequest.answers.shift();
    queueMicrotask(() => {
      if (!answer) {
        this.onerror?.();
        return;
      }
      for (const [loaded, total] of FakeRequest.progress) {
        this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
      }
      this.status = answer.status;
      this.statusText = answer.statusText ?? '';
      if (answer.body !== undefined) {
        this.contentType = 'application/json; charset=utf-8';
        this.responseText = JSON.stringify(answer.body);
      }
      this.onload?.();
    });
  }
}

const stored = uploadAnswer('deed.pdf', { key: 'transactions/t/abc-deed.pdf', url: '/files/x', size: 4 });
const PATH = transactionUploadPath('0b9e6a52-1111-4111-8111-000000000002');

function refresher(recovers: boolean) {
  const recover = vi.fn(async () => {
    if (recovers) setSession({ accessToken: 'new-access', refreshToken: 'new-refresh', userId: 'u' });
    return recovers;
  });
  const expire = vi.fn();
  const value: SessionRefresher = { recover, expire };
  return { value, recover, expire };
}

const file = () => new File(['%PDF'], 'deed.pdf', { type: 'application/pdf' });

beforeEach(() => {
  FakeRequest.sent = [];
  FakeRequest.answers = [];
  FakeRequest.progress = [];
  vi.stubGlobal('XMLHttpRequest', FakeRequest);
  setSession({ accessToken: 'old-access', refreshToken: 'old-refresh', userId: 'u' });
});
afterEach(() => vi.unstubAllGlobals());

describe('uploadFile', () => {
  it('posts the file as multipart field "file" with the bearer token, reporting whole percents', async () => {
    FakeRequest.answers = [{ status: 201, body: stored }];
    FakeRequest.progress = [
      [1, 3],
      [3, 3],
    ];
    const onProgress = vi.fn();
    const upload = createUploader(refresher(true).value);
    const picked = file();
    await expect(upload(PATH, picked, onProgress)).resolves.toEqual(stored);

    const [request] = FakeRequest.sent;
    if (!request) throw new Error('nothing was sent');
    expect(request.method).toBe('POST');
    // Asking for a same-origin link to the stored file (a wrong APP_URL cannot break it).
    expect(request.url).toBe(
      '/api/uploads/transactions/0b9e6a52-1111-4111-8111-000000000002?links=same-origin',
    );
    expect(request.headers.authorization).toBe('Bearer old-access');
    expect(request.body).toBeInstanceOf(FormData);
    const sentFile = (request.body as FormData).get('file');
    expect(sentFile).toBeInstanceOf(File);
    expect((sentFile as File).name).toBe('deed.pdf');
    expect(onProgress.mock.calls).toEqual([[33], [100]]);
  });

  it('posts several files as several "file" parts, in order, to the images route', async () => {
    FakeRequest.answers = [{ status: 201, body: { ...stored, pages: 3 } }];
    const photos = ['1.jpg', '2.jpg', '3.jpg'].map(
      (name) => new File(['jpeg'], name, { type: 'image/jpeg' }),
    );
    const answer = await createUploader(refresher(true).value)(
      transactionImagesPath('0b9e6a52-1111-4111-8111-000000000002', 'Inspection Report 2026-12-02'),
      photos,
    );
    expect(answer.pages).toBe(3);
    const [request] = FakeRequest.sent;
    if (!request) throw new Error('nothing was sent');
    expect(request.url).toBe(
      '/api/uploads/transactions/0b9e6a52-1111-4111-8111-000000000002/images?name=Inspection+Report+2026-12-02&links=same-origin',
    );
    const parts = (request.body as FormData).getAll('file') as File[];
    expect(parts.map((part) => part.name)).toEqual(['1.jpg', '2.jpg', '3.jpg']);
  });

  it('after a 401 refreshes once and retries with the new token', async () => {
    FakeRequest.answers = [
      {
        status: 401,
        body: {
          message: 'Your session has expired. Please sign in again.',
          code: 'UNAUTHORIZED',
          error: 'unauthenticated',
        },
      },
      { status: 201, body: stored },
    ];
    const session = refresher(true);
    await expect(createUploader(session.value)(PATH, file())).resolves.toEqual(stored);
    expect(session.recover).toHaveBeenCalledWith('old-refresh');
    expect(FakeRequest.sent.map((request) => request.headers.authorization)).toEqual([
      'Bearer old-access',
      'Bearer new-access',
    ]);
    expect(session.expire).not.toHaveBeenCalled();
  });

  it('gives up without a retry when the refresh fails', async () => {
    FakeRequest.answers = [
      { status: 401, body: { message: 'Expired', code: 'UNAUTHORIZED', error: 'unauthenticated' } },
    ];
    const session = refresher(false);
    await expect(createUploader(session.value)(PATH, file())).rejects.toMatchObject({ status: 401 });
    expect(FakeRequest.sent).toHaveLength(1);
  });

  it('ends the session when the retry is refused too', async () => {
    FakeRequest.answers = [
      { status: 401, body: { message: 'Expired', code: 'UNAUTHORIZED', error: 'unauthenticated' } },
      { status: 401, body: { message: 'Expired', code: 'UNAUTHORIZED', error: 'unauthenticated' } },
    ];
    const session = refresher(true);
    await expect(createUploader(session.value)(PATH, file())).rejects.toBeInstanceOf(RestError);
    expect(session.expire).toHaveBeenCalledOnce();
  });

  it("rejects with the server's message, code and error id", async () => {
    FakeRequest.answers = [
      {
        status: 415,
        body: {
          message: 'Unsupported media type',
          code: 'UNSUPPORTED_MEDIA_TYPE',
          error: 'unsupported-media-type',
        },
      },
    ];
    const error = await createUploader(refresher(true).value)(PATH, file()).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RestError);
    expect(error).toMatchObject({
      status: 415,
      message: 'Unsupported media type',
      code: 'UNSUPPORTED_MEDIA_TYPE',
      error: 'unsupported-media-type',
    });
  });

  it('falls back to the status text for a body that is not the error shape', async () => {
    FakeRequest.answers = [{ status: 502, statusText: 'Bad Gateway' }];
    await expect(createUploader(refresher(true).value)(PATH, file())).rejects.toMatchObject({
      status: 502,
      message: 'Bad Gateway',
    });
  });

  it('rejects when no answer arrives, and refuses other origins', async () => {
    const upload = createUploader(refresher(true).value);
    await expect(upload(PATH, file())).rejects.toBeInstanceOf(TypeError);
    await expect(upload('https://elsewhere.example/upload', file())).rejects.toThrow(/same-origin/);
    await expect(upload('//elsewhere.example/upload', file())).rejects.toThrow(/same-origin/);
    expect(FakeRequest.sent).toHaveLength(1);
  });
});
