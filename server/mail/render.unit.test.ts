// @vitest-environment jsdom
// (a DOMParser reads the mails as a mail client would)
import { describe, expect, it } from 'vitest';
import type { MailContent } from './content';
import { mailRenderer, renderMail } from './render';

const APP = 'https://portal.example.com';

/** A value a user could have typed, different in every field so a test can tell them apart. */
const evil = (field: string) => `<script>alert("${field}")</script> it's "${field}" & <b>more</b>`;
/** Quotes and ampersands are legal in a URL's query and must be escaped inside href="...". */
const QUOTED_URL = `${APP}/home/transactions/t1?tab='forms'&q=a+b`;

function notification(overrides: Partial<MailContent> = {}): MailContent {
  return {
    to: 'ada@example.com',
    subject: 'Inspection deadline for 12 Main St is in 3 days',
    preview: 'Dec 1: Inspection deadline',
    greeting: 'Hello Ada,',
    paragraphs: ['Inspection deadline for 12 Main St is in 3 days (Dec 1).', 'Second paragraph.'],
    items: [
      { text: 'Inspection deadline', when: 'Dec 1', link: `${APP}/home/transactions/t1` },
      { text: 'Appraisal deadline' },
    ],
    action: { label: 'Open the transaction', url: `${APP}/home/transactions/t1` },
    unsubscribe: { url: `${APP}/api/unsubscribe/tok`, page: `${APP}/unsubscribe/tok`, what: 'Key dates' },
    ...overrides,
  };
}

const everyFieldEvil: MailContent = {
  to: 'ada@example.com',
  subject: evil('subject'),
  preview: evil('preview'),
  greeting: evil('greeting'),
  paragraphs: [evil('paragraph')],
  items: [{ text: evil('item'), when: evil('when'), link: QUOTED_URL }],
  action: { label: evil('label'), url: QUOTED_URL },
  unsubscribe: { url: `${APP}/api/unsubscribe/tok`, page: QUOTED_URL, what: evil('what') },
};

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

/** The HTML with Outlook's conditional comments taken out: what every other client lays out. */
function withoutOutlookComments(html: string): string {
  return html.replaceAll(/<!--\[if [^\]]*\]>[\s\S]*?<!\[endif\]-->/g, '');
}

describe('renderMail', () => {
  it('escapes every value a user could have typed, in text and in attributes', async () => {
    const { html } = await renderMail(everyFieldEvil);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    for (const field of ['subject', 'preview', 'greeting', 'paragraph', 'item', 'when', 'label', 'what']) {
      expect(html).toContain(
        `&lt;script&gt;alert(&quot;${field}&quot;)&lt;/script&gt; it&#39;s &quot;${field}&quot; &amp; &lt;b&gt;more&lt;/b&gt;`,
      );
    }
    // What a mail client shows is exactly what was typed: the escaping round-trips.
    const document = parse(html);
    expect(document.querySelectorAll('script, b')).toHaveLength(0);
    expect(document.title).toBe(evil('subject'));
    const shown = document.body.textContent ?? '';
    for (const field of ['preview', 'greeting', 'paragraph', 'item', 'when', 'label', 'what']) {
      expect(shown).toContain(evil(field));
    }
    const hrefs = [...document.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs.length).toBeGreaterThanOrEqual(4); // item, button, written-out link, unsubscribe
    expect(new Set(hrefs)).toEqual(new Set([QUOTED_URL]));
    expect(html).toContain(`href="${APP}/home/transactions/t1?tab=&#39;forms&#39;&amp;q=a+b"`);
  });

  it('fills each value once: a slot marker a user typed stays text', async () => {
    const { html, text } = await renderMail(
      notification({ greeting: 'Hello %%body%%,', paragraphs: ['%%actionUrl%% and %%subject%%'] }),
    );
    const shown = parse(html).body.textContent ?? '';
    expect(shown).toContain('Hello %%body%%,');
    expect(shown).toContain('%%actionUrl%% and %%subject%%');
    expect(text).toContain('Hello %%body%%,');
  });

  it('carries the same content in the text part, raw, with every link written out', async () => {
    const { text } = await renderMail(notification());
    expect(text).toBe(
      [
        'Hello Ada,',
        '',
        'Inspection deadline for 12 Main St is in 3 days (Dec 1).',
        '',
        'Second paragraph.',
        '',
        '- Inspection deadline (Dec 1)',
        `  ${APP}/home/transactions/t1`,
        '- Appraisal deadline',
        '',
        `Open the transaction: ${APP}/home/transactions/t1`,
        '',
        '— Brokerage Portal',
        '',
        `You get this e-mail because Key dates is set to e-mail. Unsubscribe: ${APP}/unsubscribe/tok`,
        '',
      ].join('\n'),
    );
    const evilText = (await renderMail(everyFieldEvil)).text;
    for (const field of ['greeting', 'paragraph', 'item', 'when', 'label', 'what']) {
      expect(evilText).toContain(evil(field));
    }
    expect(evilText).toContain(`${evil('label')}: ${QUOTED_URL}`);
  });

  it('lays out the greeting, paragraphs, items, button, written-out link and footer', async () => {
    const document = parse((await renderMail(notification())).html);
    const shown = (document.body.textContent ?? '').replaceAll(/\s+/g, ' ');
    const order = [
      'Brokerage Portal',
      'Hello Ada,',
      'Inspection deadline for 12 Main St is in 3 days (Dec 1).',
      'Second paragraph.',
      'Inspection deadline',
      'Dec 1',
      'Appraisal deadline',
      'Open the transaction',
      'If the button does not work, copy this address into your browser:',
      `${APP}/home/transactions/t1`,
      '— Brokerage Portal',
      'You get this e-mail because Key dates is set to e-mail. Unsubscribe',
    ];
    let at = -1;
    for (const part of order) {
      const found = shown.indexOf(part, at + 1);
      expect(found, part).toBeGreaterThan(at);
      at = found;
    }
    const items = [...document.querySelectorAll('li')];
    expect(items.map((li) => li.querySelector('a')?.getAttribute('href') ?? null)).toEqual([
      `${APP}/home/transactions/t1`,
      null,
    ]);
    const unsubscribe = [...document.querySelectorAll('a')].find((a) => a.textContent === 'Unsubscribe');
    expect(unsubscribe?.getAttribute('href')).toBe(`${APP}/unsubscribe/tok`);
    // The preheader comes before everything else and is hidden.
    const preheader = document.body.querySelector('div');
    expect(preheader?.textContent).toBe('Dec 1: Inspection deadline');
    expect(preheader?.getAttribute('style')).toContain('display:none');
  });

  it('leaves out what a mail does not have', async () => {
    const plain = await renderMail({
      to: 'x@example.com',
      subject: 'Plain',
      greeting: 'Hello X,',
      paragraphs: ['Only words.'],
    });
    expect(plain.html).toContain('Only words.');
    expect(plain.html).not.toContain('<ul');
    expect(plain.html).not.toContain('If the button does not work');
    expect(plain.html).not.toContain('Unsubscribe');
    expect(plain.html).not.toContain('display:none'); // no preheader
    expect(parse(plain.html).querySelectorAll('a')).toHaveLength(0);
    expect(plain.text).toBe('Hello X,\n\nOnly words.\n\n— Brokerage Portal\n');
    expect(plain.headers).toEqual({});
    expect(plain.links).toEqual([]);
  });

  it('adds List-Unsubscribe and List-Unsubscribe-Post to notification mails only', async () => {
    expect((await renderMail(notification())).headers).toEqual({
      'List-Unsubscribe': `<${APP}/api/unsubscribe/tok>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect((await renderMail(notification({ unsubscribe: undefined }))).headers).toEqual({});
  });

  it('refuses links that are not absolute http(s) URLs or could break out of a header', async () => {
    const bad = [
      'javascript:alert(1)',
      '/home/transactions/t1',
      'data:text/html,<script>alert(1)</script>',
      `${APP}/a b`,
      `${APP}/a"onmouseover="alert(1)`,
      `${APP}/a>\r\nBcc: victim@example.com`,
    ];
    for (const url of bad) {
      await expect(renderMail(notification({ action: { label: 'Go', url } })), url).rejects.toThrow(
        /action\.url/,
      );
      await expect(renderMail(notification({ items: [{ text: 'x', link: url }] })), url).rejects.toThrow(
        /items\[0\]\.link/,
      );
      await expect(
        renderMail(notification({ unsubscribe: { url, page: `${APP}/p`, what: 'x' } })),
        url,
      ).rejects.toThrow(/unsubscribe\.url/);
    }
  });

  it('is readable on a 390 px phone: fluid 600 px column, mjml media query, no fixed widths', async () => {
    const { html } = await renderMail(notification());
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/@media only screen and \(min-width:480px\)/);
    expect(html).toContain('max-width:600px');
    // Outside Outlook's conditional tables, no element has a fixed width a phone cannot show.
    const others = withoutOutlookComments(html);
    const fixed = [...others.matchAll(/(?<![-\w])width:\s*(\d+)px/g)].map((match) => Number(match[1]));
    expect(fixed.filter((width) => width > 320)).toEqual([]);
    expect([...others.matchAll(/\swidth="(\d+)"/g)].filter((match) => Number(match[1]) > 320)).toEqual([]);
  });

  it('loads nothing from elsewhere: no images, web fonts or style sheets', async () => {
    const { html } = await renderMail(notification());
    expect(html).not.toMatch(/<img|<link|@import|fonts\.googleapis|\ssrc=/i);
    expect(html).toContain('font-family:Arial, Helvetica, sans-serif');
  });

  it('renders 1,000 mails, each with its own values, from the compiled layouts', async () => {
    const render = await mailRenderer();
    const shapes: Partial<MailContent>[] = [
      {},
      { action: undefined },
      { unsubscribe: undefined },
      { preview: undefined, items: undefined },
    ];
    const contents = Array.from({ length: 1000 }, (_, index) =>
      notification({
        to: `agent${index}@example.com`,
        greeting: `Hello Agent ${index},`,
        ...shapes[index % shapes.length],
      }),
    );
    const mails = contents.map(render);
    expect(new Set(mails.map((mail) => mail.html)).size).toBe(1000);
    mails.forEach((mail, index) => {
      expect(mail.to).toBe(`agent${index}@example.com`);
      expect(mail.html).toContain(`Hello Agent ${index},`);
      expect(mail.text.startsWith(`Hello Agent ${index},\n`)).toBe(true);
      expect(mail.html.includes('Unsubscribe')).toBe(index % 4 !== 2);
      expect(mail.html.includes('If the button does not work')).toBe(index % 4 !== 1);
    });
    // The synchronous renderer and renderMail give the same mail.
    expect(await renderMail(contents[3] as MailContent)).toEqual(mails[3]);
  });
});
