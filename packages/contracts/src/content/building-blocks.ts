import { z } from 'zod/mini';

// ---------------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------------

/** Longest relative URL the content service accepts (2 KB). */
export const MAX_RELATIVE_URL_LENGTH = 2048;

// eslint-disable-next-line no-control-regex
export const controlChars = /[\u0000-\u001f\u007f]/;

/**
 * A link target content may carry: a site path, an https address, tel:, mailto: or an in-page #anchor.
 * Anything else (javascript:, data:, protocol-relative //host) is refused.
 */
export const safeLink = z.string().check(
  z.maxLength(2048),
  z.refine(
    (v) => v === '' || /^(\/(?!\/)|#|https:\/\/[^\s]+$|tel:\+?[0-9 ]+$|mailto:[^\s@]+@[^\s@]+$)/.test(v),
    { message: 'Links must be a site path, an https address, tel: or mailto:' },
  ),
  z.refine((v) => !controlChars.test(v) && !/\s/.test(v.replace(/^tel:.*/, '')), {
    message: 'Links must not contain spaces or control characters',
  }),
);

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
      if (name === 'href' && !safeLink.safeParse(value).success) return `link ${value} is not allowed`;
    }
  }
  return undefined;
}

/** An HTML fragment limited to `richTextTags` and `richTextAttributes`. */
export const richText = z.string().check(
  z.maxLength(20_000),
  z.superRefine((v, ctx) => {
    const problem = richTextProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: `Rich text: ${problem}` });
  }),
);

/** A site path as content names it: starts with one `/`, no query or fragment. */
export const contentPath = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(MAX_RELATIVE_URL_LENGTH),
    z.regex(/^\/(?!\/)[^?#\s]*$/, 'Must be a site path starting with /'),
  );

export const contentImage = z.object({
  /**
   * A site path or an absolute address. The content service's own media (`/api/v1/content/media/...`)
   * is answered with the service's mount path or, when it lives on another origin, its absolute URL.
   */
  src: z
    .string()
    .check(
      z.maxLength(2048),
      z.regex(/^(\/(?!\/)|https?:\/\/)[^\s"'<>]+$/, 'An image needs a site path or an http(s) address'),
    ),
  /** Empty for a decorative image. */
  alt: z.string().check(z.maxLength(300)),
  width: z.optional(z.number().check(z.int(), z.positive())),
  height: z.optional(z.number().check(z.int(), z.positive())),
});
export type ContentImage = z.infer<typeof contentImage>;

export const opensIn = z.enum(['NewTab', 'SameTab']);
export type OpensIn = z.infer<typeof opensIn>;
