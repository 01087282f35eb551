import type { MailContent, RenderedMail } from './content';

// Placeholder until the mjml layout lands (helper h-mail): plain HTML of the same content.
const esc = (v: string) =>
  v.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
export function renderMail(content: MailContent): RenderedMail {
  const lines = [content.greeting, ...content.paragraphs, ...(content.items ?? []).map((i) => i.text)];
  if (content.action) lines.push(`${content.action.label}: ${content.action.url}`);
  if (content.unsubscribe) lines.push(`Unsubscribe: ${content.unsubscribe.page}`);
  return {
    to: content.to,
    subject: content.subject,
    text: lines.join('\n\n'),
    html: `<html><body>${lines.map((l) => `<p>${esc(l)}</p>`).join('')}${
      content.action ? `<a href="${esc(content.action.url)}">${esc(content.action.label)}</a>` : ''
    }</body></html>`,
    headers: content.unsubscribe
      ? {
          'List-Unsubscribe': `<${content.unsubscribe.url}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        }
      : {},
  };
}
