import { z } from 'zod/mini';
import { hasNoStrayCharacters, isAllowedLinkKind, MAX_LINK_LENGTH, richTextProblem } from './rich-text-rules';

// ---------------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------------

/** Longest relative URL the content service accepts (2 KB). */
export const MAX_RELATIVE_URL_LENGTH = 2048;

export {
  attrPattern,
  controlChars,
  richTextAttributes,
  richTextProblem,
  richTextTags,
  tagPattern,
} from './rich-text-rules';

/**
 * A link target content may carry: a site path, an https address, tel:, mailto: or an in-page #anchor.
 * Anything else (javascript:, data:, protocol-relative //host) is refused.
 */
export const safeLink = z
  .string()
  .check(
    z.maxLength(MAX_LINK_LENGTH),
    z.refine(isAllowedLinkKind, { message: 'Links must be a site path, an https address, tel: or mailto:' }),
    z.refine(hasNoStrayCharacters, { message: 'Links must not contain spaces or control characters' }),
  );

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
