/*
 * The rules of rich text and links as plain functions, with no schema in this module: the SPA checks rich
 * text with them on its first page without constructing the content schemas (issue 15). The schemas in
 * building-blocks.ts are built on the same functions, so the two cannot disagree.
 */

// eslint-disable-next-line no-control-regex
export const controlChars = /[\u0000-\u001f\u007f]/;

/**
 * A link target content may carry: a site path, an https address, tel:, mailto: or an in-page #anchor.
 * Anything else (javascript:, data:, protocol-relative //host) is refused. `tel:{phone}` is the site's
 * freephone number, which the content service writes in as it serves the text.
 */
export const MAX_LINK_LENGTH = 2048;

/** The kinds of link content may carry (an empty link is no link). */
export const isAllowedLinkKind = (v: string): boolean =>
  v === '' || /^(\/(?!\/)|#|https:\/\/[^\s]+$|tel:(\+?[0-9 ]+|\{phone\})$|mailto:[^\s@]+@[^\s@]+$)/.test(v);

/** No control characters, and no spaces outside a tel: number. */
export const hasNoStrayCharacters = (v: string): boolean =>
  !controlChars.test(v) && !/\s/.test(v.replace(/^tel:.*/, ''));

/** Whether a link passes every rule of `safeLink` (building-blocks.ts), without building the schema. */
const isSafeLink = (v: string): boolean =>
  v.length <= MAX_LINK_LENGTH && isAllowedLinkKind(v) && hasNoStrayCharacters(v);

/** Tags allowed in rich text. The SPA shows nothing of rich text outside them (web content/rich-text.tsx). */
export const richTextTags = [
  'p',
  'br',
  'strong',
  'em',
  'b',
  'i',
  'ul',
  'ol',
  'li',
  'a',
  'h2',
  'h3',
  'h4',
  'span',
  'abbr',
] as const;
/** Attributes allowed in rich text; `href` must also be a safe link. */
export const richTextAttributes = ['href', 'title', 'class', 'lang', 'rel', 'target', 'aria-label'] as const;

export const tagPattern = /<\/?([a-zA-Z][a-zA-Z0-9-]*)\b([^>]*)>/g;
export const attrPattern = /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

/** Why an HTML fragment is not acceptable rich text, or undefined when it is. */
export function richTextProblem(html: string): string | undefined {
  if (/<!--|<!\[CDATA\[|<!doctype/i.test(html)) return 'comments and declarations are not allowed';
  for (const match of html.matchAll(tagPattern)) {
    const tag = match[1]!.toLowerCase();
    if (!(richTextTags as readonly string[]).includes(tag)) return `tag <${tag}> is not allowed`;
    const attrs = (match[2] ?? '').replace(/\/\s*$/, '');
    for (const a of attrs.matchAll(attrPattern)) {
      const name = a[1]!.toLowerCase();
      if (!(richTextAttributes as readonly string[]).includes(name))
        return `attribute ${name} is not allowed`;
      const value = a[2] ?? a[3] ?? a[4] ?? '';
      if (name === 'href' && !isSafeLink(value)) return `link ${value} is not allowed`;
    }
  }
  return undefined;
}
