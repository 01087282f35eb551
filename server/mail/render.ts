import type { MailContent, RenderedMail } from './content';

/**
 * Every mail's look: one mjml layout, HTML that holds up in Gmail, Outlook and Apple
 * Mail from a 390 px phone to a 600 px desktop column, and a text part with the same content.
 *
 * mjml takes milliseconds per compile and a reminder run sends thousands of mails, so the layout
 * is compiled once per shape (with or without preview, button, unsubscribe footer: eight at most),
 * on first use, into HTML with %%slot%% markers; each mail then only fills the slots with escaped
 * values, a string join of a few microseconds. User values are filled in after mjml has run, in a
 * single pass over the parts, so nothing a user typed is ever read as mjml or as a slot marker.
 */

const PRODUCT = 'Brokerage Portal';

const COLORS = {
  page: '#f1f3f5',
  card: '#ffffff',
  text: '#1a1b1e',
  muted: '#5c5f66',
  footer: '#495057',
  // Mantine blue 8: white on it meets WCAG AA (5:1) at 16 px, which blue 6/7 do not.
  brand: '#1971c2',
};

type Slot =
  | 'subject'
  | 'preview'
  | 'body'
  | 'actionUrl'
  | 'actionLabel'
  | 'unsubscribeWhat'
  | 'unsubscribePage';

type Shape = { preview: boolean; action: boolean; unsubscribe: boolean };

/** The compiled HTML split at its slots: even indexes are fixed HTML, odd ones slot names. */
type CompiledLayout = { parts: string[] };

function shapeOf(content: MailContent): Shape {
  return {
    preview: Boolean(content.preview),
    action: Boolean(content.action),
    unsubscribe: Boolean(content.unsubscribe),
  };
}

function layoutSource(shape: Shape): string {
  const action = shape.action
    ? `
    <mj-button href="%%actionUrl%%" align="left" background-color="${COLORS.brand}" color="#ffffff" font-size="16px" font-weight="700" border-radius="4px" inner-padding="12px 24px" padding="8px 24px 16px">%%actionLabel%%</mj-button>
    <mj-text font-size="13px" line-height="20px" color="${COLORS.muted}" padding="0 24px 16px">If the button does not work, copy this address into your browser:<br /><a href="%%actionUrl%%" style="color:${COLORS.brand};word-break:break-all">%%actionUrl%%</a></mj-text>`
    : '';
  const footer = shape.unsubscribe
    ? `
  <mj-section padding="16px 0 24px"><mj-column>
    <mj-text font-size="12px" line-height="18px" color="${COLORS.footer}">You get this e-mail because %%unsubscribeWhat%% is set to e-mail. <a href="%%unsubscribePage%%" style="color:${COLORS.footer};text-decoration:underline">Unsubscribe</a></mj-text>
  </mj-column></mj-section>`
    : '';
  return `<mjml lang="en">
<mj-head>
  <mj-title>%%subject%%</mj-title>${shape.preview ? '\n  <mj-preview>%%preview%%</mj-preview>' : ''}
  <mj-attributes>
    <mj-all font-family="Arial, Helvetica, sans-serif" />
    <mj-text font-size="16px" line-height="24px" color="${COLORS.text}" padding="0 24px" />
  </mj-attributes>
</mj-head>
<mj-body width="600px" background-color="${COLORS.page}">
  <mj-section padding="24px 0 12px"><mj-column>
    <mj-text font-size="20px" line-height="28px" font-weight="700" color="${COLORS.brand}">${PRODUCT}</mj-text>
  </mj-column></mj-section>
  <mj-section background-color="${COLORS.card}" border-radius="6px" padding="24px 0 8px"><mj-column>
    <mj-text>%%body%%</mj-text>${action}
    <mj-text color="${COLORS.muted}" padding="0 24px 16px">— ${PRODUCT}</mj-text>
  </mj-column></mj-section>${footer}
</mj-body>
</mjml>`;
}

function slotsOf(shape: Shape): Slot[] {
  const slots: Slot[] = ['subject', 'body'];
  if (shape.preview) slots.push('preview');
  if (shape.action) slots.push('actionUrl', 'actionLabel');
  if (shape.unsubscribe) slots.push('unsubscribeWhat', 'unsubscribePage');
  return slots;
}

async function compile(shape: Shape): Promise<CompiledLayout> {
  // Loaded on first use: a process that never mails never pays for mjml and its dependencies.
  const { default: mjml2html } = await import('mjml');
  const { html, errors } = await mjml2html(layoutSource(shape), {
    validationLevel: 'strict',
    fonts: {},
    keepComments: false,
  });
  if (errors.length > 0) throw new Error(`The mail layout is not valid mjml: ${errors[0]?.formattedMessage}`);
  // Indentation and blank lines are a third of mjml's output and mean nothing to a mail client.
  const compact = html
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
  const parts = compact.split(/%%(\w+)%%/);
  const found = new Set(parts.filter((_, index) => index % 2 === 1));
  const expected = slotsOf(shape);
  if (found.size !== expected.length || !expected.every((slot) => found.has(slot))) {
    throw new Error(`The compiled mail layout has slots [${[...found]}], expected [${expected}]`);
  }
  return { parts };
}

const layouts = new Map<string, Promise<CompiledLayout>>();

function layoutFor(shape: Shape): Promise<CompiledLayout> {
  const key = `${+shape.preview}${+shape.action}${+shape.unsubscribe}`;
  let layout = layouts.get(key);
  if (!layout) {
    layout = compile(shape);
    // A failed compile is not kept, so the next mail tries again.
    layout.catch(() => layouts.delete(key));
    layouts.set(key, layout);
  }
  return layout;
}

const ALL_SHAPES: Shape[] = [false, true].flatMap((preview) =>
  [false, true].flatMap((action) => [false, true].map((unsubscribe) => ({ preview, action, unsubscribe }))),
);

/**
 * Renders one mail; the first mail of each shape compiles its layout (tens of milliseconds),
 * every later one only fills slots.
 */
export async function renderMail(content: MailContent): Promise<RenderedMail> {
  return fill(await layoutFor(shapeOf(content)), content);
}

/**
 * Compiles every shape once and answers a synchronous renderer, for a job that renders many
 * mails in a loop.
 */
export async function mailRenderer(): Promise<(content: MailContent) => RenderedMail> {
  const compiled = await Promise.all(ALL_SHAPES.map((shape) => layoutFor(shape)));
  const byKey = new Map(ALL_SHAPES.map((shape, index) => [JSON.stringify(shape), compiled[index]]));
  return (content) => {
    const layout = byKey.get(JSON.stringify(shapeOf(content)));
    if (!layout) throw new Error('No compiled mail layout for this shape');
    return fill(layout, content);
  };
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Escaped, with the line breaks a value may hold kept as <br />. */
function htmlText(value: string): string {
  return escapeHtml(value).replaceAll(/\r?\n/g, '<br />');
}

/**
 * Links in a mail are absolute http(s) addresses built by the server on APP_URL. Anything else
 * (a `javascript:` URL, a client path, a value with spaces, quotes or angle brackets that could
 * break out of the List-Unsubscribe header's <...>) is a bug in the caller, so it fails loudly.
 */
function mailUrl(value: string, field: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`${field} is not an absolute URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Error(`${field} must be an http(s) URL`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
  if (/[\s<>"\\\u0000-\u001f\u007f]/.test(value)) {
    throw new Error(`${field} holds characters a URL may not carry unencoded`);
  }
  return value;
}

function fill(layout: CompiledLayout, content: MailContent): RenderedMail {
  const { to, subject, preview, greeting, paragraphs, items = [], action, unsubscribe } = content;
  const actionUrl = action ? mailUrl(action.url, 'action.url') : undefined;
  const itemLinks = items.map((item, index) =>
    item.link ? mailUrl(item.link, `items[${index}].link`) : undefined,
  );
  const unsubscribeUrl = unsubscribe ? mailUrl(unsubscribe.url, 'unsubscribe.url') : undefined;
  const unsubscribePage = unsubscribe ? mailUrl(unsubscribe.page, 'unsubscribe.page') : undefined;

  const paragraph = (value: string) => `<p style="margin:0 0 16px">${htmlText(value)}</p>`;
  let body = paragraph(greeting) + paragraphs.map(paragraph).join('');
  if (items.length > 0) {
    const rows = items.map((item, index) => {
      const link = itemLinks[index];
      const label = link
        ? `<a href="${escapeHtml(link)}" style="color:${COLORS.brand}">${htmlText(item.text)}</a>`
        : htmlText(item.text);
      const when = item.when
        ? `<br /><span style="font-size:14px;color:${COLORS.muted}">${htmlText(item.when)}</span>`
        : '';
      return `<li style="margin:0 0 8px">${label}${when}</li>`;
    });
    body += `<ul style="margin:0 0 16px;padding:0 0 0 20px">${rows.join('')}</ul>`;
  }

  const values: Record<Slot, string> = {
    subject: escapeHtml(subject),
    preview: escapeHtml(preview ?? ''),
    body,
    actionUrl: escapeHtml(actionUrl ?? ''),
    actionLabel: escapeHtml(action?.label ?? ''),
    unsubscribeWhat: escapeHtml(unsubscribe?.what ?? ''),
    unsubscribePage: escapeHtml(unsubscribePage ?? ''),
  };
  const { parts } = layout;
  let html = '';
  for (let index = 0; index < parts.length; index++) {
    html += index % 2 === 0 ? parts[index] : values[parts[index] as Slot];
  }

  const blocks = [greeting, ...paragraphs];
  if (items.length > 0) {
    blocks.push(
      items
        .map((item, index) => {
          const line = `- ${item.text}${item.when ? ` (${item.when})` : ''}`;
          const link = itemLinks[index];
          return link ? `${line}\n  ${link}` : line;
        })
        .join('\n'),
    );
  }
  if (action && actionUrl) blocks.push(`${action.label}: ${actionUrl}`);
  blocks.push(`— ${PRODUCT}`);
  if (unsubscribe && unsubscribePage) {
    blocks.push(
      `You get this e-mail because ${unsubscribe.what} is set to e-mail. Unsubscribe: ${unsubscribePage}`,
    );
  }
  const text = `${blocks.join('\n\n')}\n`;

  const headers: Record<string, string> = unsubscribeUrl
    ? { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    : {};
  const links = [...new Set([actionUrl, ...itemLinks].filter((link): link is string => link !== undefined))];
  return { to, subject, text, html, headers, links };
}
