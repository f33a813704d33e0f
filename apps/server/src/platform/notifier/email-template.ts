import type { OutboundMessage } from './message';

/*
 * One description of an email, rendered to both of its parts: the plain-text body and the HTML body.
 * A template describes its message once (a greeting, blocks of paragraphs, a list, a call to action,
 * links, a closing line) and renderEmail writes the two from it, so they cannot say different things.
 *
 * The HTML is a plain single-column layout in the GOV.UK style: Arial on white, black text, a header
 * bar with the insurer's name as text, underlined links with their address shown, at most 580px wide
 * through a table (what email clients honour), inline styles only. No images, no tracking pixels, no
 * remote resources, no scripts: it reads the same with images off. Every value is escaped.
 */

/**
 * The name in the header bar. Not configurable yet: the same name as the letterhead of the PDFs
 * (platform/pdf.ts) and the content's site settings.
 */
const INSURER_NAME = 'Meridian Mutual';

/** A link inside a paragraph: its address is what the reader sees, in both parts. */
interface InlineLink {
  href: string;
}
type Inline = string | InlineLink;

/** A link with a label: the call to action, and each of a list of links. */
interface LabelledLink {
  label: string;
  href: string;
}

type EmailBlock =
  /** Text (line breaks kept) with links whose addresses are shown. */
  | { type: 'paragraph'; parts: readonly Inline[] }
  /** A bulleted list. */
  | { type: 'list'; items: readonly string[] }
  /** The one thing to do: in the text, its address on a line of its own (the paragraph before says what it is). */
  | { type: 'action'; link: LabelledLink }
  /** Further links, one a line: "label: address". */
  | { type: 'links'; links: readonly LabelledLink[] }
  /** Facts one a line: "label: value". */
  | { type: 'facts'; rows: readonly (readonly [label: string, value: string])[] }
  /** A security code, on a line of its own. */
  | { type: 'code'; value: string };

/** What an email says, once: its subject, greeting, blocks and closing line. */
export interface EmailContent {
  subject: string;
  /** The first line, e.g. "Dear Margaret," (a first name only) or "Hello,"; none for the insurer's inbox. */
  greeting?: string;
  blocks: readonly EmailBlock[];
  /** The closing line (why the email came, what to do if unexpected): small print in the HTML. */
  footer?: string;
}

export const link = (href: string): InlineLink => ({ href });
export const paragraph = (...parts: Inline[]): EmailBlock => ({ type: 'paragraph', parts });
export const list = (items: readonly string[]): EmailBlock => ({ type: 'list', items });
export const action = (label: string, href: string): EmailBlock => ({
  type: 'action',
  link: { label, href },
});
export const links = (items: readonly LabelledLink[]): EmailBlock => ({ type: 'links', links: items });
export const facts = (rows: readonly (readonly [string, string])[]): EmailBlock => ({ type: 'facts', rows });
export const code = (value: string): EmailBlock => ({ type: 'code', value });

/** Escapes text for HTML, in an element or a quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

// ---- the text part

const textOf = (part: Inline) => (typeof part === 'string' ? part : part.href);

function blockText(block: EmailBlock): string {
  switch (block.type) {
    case 'paragraph':
      return block.parts.map(textOf).join('');
    case 'list':
      return block.items.map((item) => `- ${item}`).join('\n');
    case 'action':
      return block.link.href;
    case 'links':
      return block.links.map((l) => `${l.label}: ${l.href}`).join('\n');
    case 'facts':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
    case 'code':
      return block.value;
  }
}

function renderText(content: EmailContent): string {
  const parts = [content.greeting, ...content.blocks.map(blockText), content.footer];
  return `${parts.filter((p) => p !== undefined).join('\n\n')}\n`;
}

// ---- the HTML part

const FONT = 'Arial, Helvetica, sans-serif';
const TEXT = '#0b0c0c';
const SECONDARY = '#505a5f';
const LINK = '#1d70b8';
const P = `margin:0 0 20px 0;`;
const LINK_STYLE = `color:${LINK};text-decoration:underline;`;
/** An address shown as text may be long (a token): it wraps anywhere rather than widening the page. */
const ADDRESS_STYLE = `word-break:break-all;overflow-wrap:anywhere;`;

/** Escaped text with its line breaks kept. */
const lines = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>\n');

const anchor = (href: string, inner: string, style = LINK_STYLE) =>
  `<a href="${escapeHtml(href)}" style="${style}">${inner}</a>`;

function inlineHtml(part: Inline): string {
  return typeof part === 'string'
    ? lines(part)
    : anchor(part.href, escapeHtml(part.href), LINK_STYLE + ADDRESS_STYLE);
}

/** A labelled link: the label is the link, its address shown under it (readable, and copied if need be). */
const labelled = (l: LabelledLink, labelStyle = '') =>
  `${anchor(l.href, escapeHtml(l.label), LINK_STYLE + labelStyle)}<br>\n` +
  `<span style="font-size:16px;color:${SECONDARY};${ADDRESS_STYLE}">${escapeHtml(l.href)}</span>`;

function blockHtml(block: EmailBlock): string {
  switch (block.type) {
    case 'paragraph':
      return `<p style="${P}">${block.parts.map(inlineHtml).join('')}</p>`;
    case 'list':
      return (
        `<ul style="margin:0 0 20px 0;padding:0 0 0 20px;">\n` +
        block.items.map((item) => `<li style="margin:0 0 5px 0;">${lines(item)}</li>`).join('\n') +
        `\n</ul>`
      );
    case 'action':
      return `<p style="${P}">${labelled(block.link, 'font-weight:bold;font-size:21px;')}</p>`;
    case 'links':
      return (
        `<ul style="margin:0 0 20px 0;padding:0 0 0 20px;">\n` +
        block.links.map((l) => `<li style="margin:0 0 10px 0;">${labelled(l)}</li>`).join('\n') +
        `\n</ul>`
      );
    case 'facts':
      return (
        `<p style="${P}">` +
        block.rows
          .map(([label, value]) => `<strong>${escapeHtml(label)}:</strong> ${lines(value)}`)
          .join('<br>\n') +
        `</p>`
      );
    case 'code':
      return (
        `<p style="${P}font-size:32px;font-weight:bold;letter-spacing:4px;">` +
        `${escapeHtml(block.value)}</p>`
      );
  }
}

function renderHtml(content: EmailContent): string {
  const body = [
    ...(content.greeting === undefined ? [] : [`<p style="${P}">${lines(content.greeting)}</p>`]),
    ...content.blocks.map(blockHtml),
    ...(content.footer === undefined
      ? []
      : [
          `<p style="margin:30px 0 0 0;padding:15px 0 0 0;border-top:1px solid #b1b4b6;font-size:16px;` +
            `color:${SECONDARY};">${lines(content.footer)}</p>`,
        ]),
  ].join('\n');
  const column = `role="presentation" width="580" cellpadding="0" cellspacing="0" border="0" align="center"`;
  return `<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(content.subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#ffffff;color:${TEXT};font-family:${FONT};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;">
<tr><td style="background-color:${TEXT};border-bottom:10px solid ${LINK};padding:15px 10px;">
<table ${column} style="border-collapse:collapse;width:100%;max-width:580px;">
<tr><td style="font-family:${FONT};font-size:28px;line-height:1.3;font-weight:bold;color:#ffffff;">${escapeHtml(INSURER_NAME)}</td></tr>
</table>
</td></tr>
<tr><td style="padding:30px 10px;">
<table ${column} style="border-collapse:collapse;width:100%;max-width:580px;">
<tr><td style="font-family:${FONT};font-size:19px;line-height:1.5;color:${TEXT};">
${body}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** The two parts of an email, from its one description. */
export function renderEmail(content: EmailContent): { subject: string; text: string; html: string } {
  return { subject: content.subject, text: renderText(content), html: renderHtml(content) };
}

/** An email message (both parts) to `to`, for the notifier. */
export function emailMessage(
  envelope: Pick<OutboundMessage, 'to' | 'kind' | 'customerId' | 'reference'>,
  content: EmailContent,
): OutboundMessage {
  return { channel: 'email', ...envelope, ...renderEmail(content) };
}
