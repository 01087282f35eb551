import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { esignMessages } from '../../shared/esign-messages';
import type { SigningView } from '../../shared/schemas/esign';
import { esignPageMessages } from '../../shared/signing-page-messages';
import { AppRoutes } from '../routes';
import { renderWithProviders } from '../test-utils/render';

/** pdf.js cannot run in jsdom: a fake letter-size document of two pages whose drawings finish at once. */
vi.mock('pdfjs-dist', () => ({
  GlobalWorkerOptions: { workerSrc: '' },
  getDocument: () => ({
    promise: Promise.resolve({
      numPages: 2,
      getPage: async () => ({
        getViewport: ({ scale }: { scale: number }) => ({ width: 612 * scale, height: 792 * scale }),
        render: () => ({ promise: Promise.resolve(), cancel: () => {} }),
      }),
    }),
    destroy: async () => {},
  }),
}));
vi.mock('pdfjs-dist/build/pdf.worker.min.mjs?url', () => ({ default: '/assets/pdf.worker.min.mjs' }));

const SIG = '00000000-0000-4000-8000-000000000001';
const TEXT = '00000000-0000-4000-8000-000000000002';
const DATE = '00000000-0000-4000-8000-000000000003';
const TOKEN = 'aB3_dEf-ghIJklmnOPqrStuvWXyz0123456789abcde';
const VIEW: SigningView = {
  request: {
    subject: 'Purchase agreement for 12 Elm St',
    message: 'Please sign by Friday.',
    from: 'Ava Agent',
  },
  signer: { name: 'Sam Signer', email: 'sam@example.com' },
  documentUrl: `/api/sign/${TOKEN}/document`,
  fields: [
    { _id: SIG, page: 1, kind: 'signature', x: 72, y: 600, width: 200, height: 40, value: null },
    { _id: TEXT, page: 1, kind: 'text', x: 72, y: 660, width: 200, height: 20, value: null },
    { _id: DATE, page: 2, kind: 'date', x: 300, y: 600, width: 100, height: 20, value: null },
  ],
  status: 'pending',
};

type Call = { url: string; method: string; body: unknown };
let calls: Call[] = [];
type Answer = { status: number; body: unknown };
/** What the server answers a call, by method and path (from its body, for the POSTs). */
let answers: Record<string, (body: unknown) => Answer> = {};

/** The network edge: each signing call answered from `answers` by method and path. */
function stubNetwork() {
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, method, body });
    const answer = answers[`${method} ${url}`]?.(body) ?? {
      status: 404,
      body: { message: 'Not found', code: 'NOT_FOUND', error: 'not-found' },
    };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
}

const refusal = (message: string): Answer => ({
  status: 400,
  body: { message, code: 'BAD_REQUEST', error: 'validation' },
});

beforeEach(() => {
  calls = [];
  answers = {
    [`GET /api/sign/${TOKEN}`]: () => ({ status: 200, body: VIEW }),
    // The server's checks that the page leaves to it: consent, every field, a reason.
    [`POST /api/sign/${TOKEN}`]: (body) => {
      const { consent, values } = body as { consent: boolean; values: Array<{ value: string }> };
      if (values.some((field) => !field.value)) return refusal(esignMessages.fillEveryField);
      if (consent !== true) return refusal(esignMessages.consentRequired);
      return { status: 200, body: { status: 'signed' } };
    },
    [`POST /api/sign/${TOKEN}/decline`]: (body) =>
      (body as { reason: string }).reason
        ? { status: 200, body: { status: 'declined' } }
        : refusal(esignMessages.reasonRequired),
  };
  stubNetwork();
});
afterEach(() => vi.unstubAllGlobals());

const renderAt = (token = TOKEN) => renderWithProviders(<AppRoutes />, { path: `/sign/${token}` });
const posts = () => calls.filter((call) => call.method === 'POST');

describe('Signing page', () => {
  it("shows the request, the signer's fields in the form and as boxes on the page, with no session", async () => {
    renderAt();
    // The page's code (and the viewer's) arrives on demand: the first time in a run, it can take a while.
    expect(
      await screen.findByRole('heading', { level: 1, name: VIEW.request.subject }, { timeout: 10_000 }),
    ).toBeVisible();
    expect(screen.getByText('Ava Agent')).toBeVisible();
    expect(screen.getByText('Sam Signer')).toBeVisible();
    expect(screen.getByTestId('signing-message')).toHaveTextContent('Please sign by Friday.');
    expect(screen.getByText('Signature 1 (page 1)')).toBeVisible();
    expect(screen.getByRole('textbox', { name: /Text 1 \(page 1\)/ })).toBeVisible();
    expect(screen.getByText(esignPageMessages.dateFilledIn)).toBeVisible();
    // Page 1's two fields are boxes over the drawn page, scaled from points; page 2's is not there.
    expect(await screen.findByTestId(`field-box-${SIG}`)).toBeInTheDocument();
    expect(screen.getByTestId(`field-box-${TEXT}`)).toBeInTheDocument();
    expect(screen.queryByTestId(`field-box-${DATE}`)).toBeNull();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([`GET /api/sign/${TOKEN}`]);
    expect(window.localStorage.length).toBe(0);
  });

  it("sends the consent as given: unticked, the server's refusal is shown and nothing is signed", async () => {
    const { user } = renderAt();
    await user.click(await screen.findByRole('radio', { name: 'Type' }));
    await user.type(screen.getByRole('textbox', { name: /Text 1/ }), 'Blue');
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(esignMessages.consentRequired);
    expect(posts()[0]?.body).toMatchObject({ consent: false });
    expect(screen.queryByRole('heading', { name: 'Signed, thank you' })).toBeNull();
    // Ticked, the same form signs.
    await user.click(screen.getByRole('checkbox', { name: esignPageMessages.consent }));
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Signed, thank you' })).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('an empty field is sent empty, and the refusal asks for every field', async () => {
    const { user } = renderAt();
    await user.click(await screen.findByRole('checkbox', { name: esignPageMessages.consent }));
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(esignMessages.fillEveryField);
    expect(posts()[0]?.body).toEqual({
      consent: true,
      values: [
        { fieldId: SIG, value: '' },
        { fieldId: TEXT, value: '' },
      ],
    });
  });

  it('sends the typed signature and the text, no date, with consent, and thanks the signer', async () => {
    const { user } = renderAt();
    await user.click(await screen.findByRole('radio', { name: 'Type' }));
    const typed = screen.getByRole('textbox', { name: /Signature 1 \(page 1\): type it/ });
    expect(typed).toHaveValue('Sam Signer');
    await user.type(screen.getByRole('textbox', { name: /Text 1/ }), 'Blue');
    await user.click(screen.getByRole('checkbox', { name: esignPageMessages.consent }));
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Signed, thank you' })).toBeVisible();
    expect(posts()).toEqual([
      {
        url: `/api/sign/${TOKEN}`,
        method: 'POST',
        body: {
          consent: true,
          values: [
            { fieldId: SIG, value: 'Sam Signer' },
            { fieldId: TEXT, value: 'Blue' },
          ],
        },
      },
    ]);
  });

  it('sends a drawn signature as a PNG data URL', async () => {
    const { user } = renderAt();
    const canvas = await screen.findByTestId('signature-canvas');
    canvas.setPointerCapture = () => {};
    await user.pointer([
      { keys: '[MouseLeft>]', target: canvas, coords: { clientX: 10, clientY: 10 } },
      { target: canvas, coords: { clientX: 60, clientY: 30 } },
      { keys: '[/MouseLeft]', target: canvas },
    ]);
    await user.type(screen.getByRole('textbox', { name: /Text 1/ }), 'Blue');
    await user.click(screen.getByRole('checkbox', { name: esignPageMessages.consent }));
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    await screen.findByRole('heading', { level: 1, name: 'Signed, thank you' });
    const sent = posts()[0]?.body as { values: Array<{ fieldId: string; value: string }> };
    expect(sent.values[0]?.fieldId).toBe(SIG);
    expect(sent.values[0]?.value).toMatch(/^data:image\/png/);
  });

  it("shows the server's refusal next to the form", async () => {
    answers[`POST /api/sign/${TOKEN}`] = () => refusal(esignMessages.textTooLong);
    const { user } = renderAt();
    await user.click(await screen.findByRole('radio', { name: 'Type' }));
    await user.type(screen.getByRole('textbox', { name: /Text 1/ }), 'Blue');
    await user.click(screen.getByRole('checkbox', { name: esignPageMessages.consent }));
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(esignMessages.textTooLong);
  });

  it('declines with a required reason', async () => {
    const { user } = renderAt();
    await user.click(await screen.findByRole('button', { name: 'Decline to sign' }));
    const form = screen.getByRole('form', { name: 'Decline to sign' });
    await user.click(within(form).getByRole('button', { name: 'Decline' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(esignMessages.reasonRequired);
    await user.type(within(form).getByRole('textbox', { name: /Why do you decline/ }), 'Wrong price');
    await user.click(within(form).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText(esignPageMessages.declined)).toBeVisible();
    expect(posts().map((call) => call.body)).toEqual([{ reason: '' }, { reason: 'Wrong price' }]);
    expect(posts()[1]?.url).toBe(`/api/sign/${TOKEN}/decline`);
  });

  it('says a link nobody holds is not valid', async () => {
    renderAt('unknown-token');
    expect(await screen.findByRole('alert')).toHaveTextContent(esignPageMessages.invalidLink);
  });

  it("shows the server's words for a closed request", async () => {
    answers[`GET /api/sign/${TOKEN}`] = () => ({
      status: 409,
      body: { message: esignMessages.closed, code: 'CONFLICT', error: 'conflict' },
    });
    renderAt();
    expect(await screen.findByRole('alert')).toHaveTextContent(esignMessages.closed);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Sign' })).toBeNull());
  });
});
