import type { PublicContentPayload } from '@portal/contracts/server-render';
import { instanceOf, type PlatformContext } from './module';

/*
 * Previews of a content draft on a customer's page (issue 42): the console gets a short-lived token for an
 * item's draft, and the page at `/<path>?contentPreview=<token>` is the customers' SPA with that draft's
 * public content in it (decision 017's data block), for staff only (the token is random, lives minutes,
 * and is issued only to editors and publishers). The content module answers what a token shows; the SPA
 * installer (spa.ts) names no module.
 */

/** The query parameter a preview's page address carries its token in. */
export const CONTENT_PREVIEW_PARAM = 'contentPreview';

/** The public content a preview token shows at a path; null when the token is not live or no page is there. */
export type ContentPreviewPort = (token: string, path: string) => Promise<PublicContentPayload | null>;

const ports = new WeakMap<object, ContentPreviewPort>();

export function provideContentPreview(ctx: PlatformContext, port: ContentPreviewPort): void {
  ports.set(instanceOf(ctx), port);
}

export function contentPreviewOf(ctx: PlatformContext): ContentPreviewPort | undefined {
  return ports.get(instanceOf(ctx));
}
