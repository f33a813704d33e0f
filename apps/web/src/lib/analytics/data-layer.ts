/**
 * The analytics data layer (Google Tag Manager's `window.dataLayer`). The portal only pushes to it; a tag
 * manager, when the site adds one, reads it. Nothing personal goes in: no names, emails, customer or policy
 * numbers, tokens or codes, and addresses are cleaned first (see page-views.ts).
 */
export type DataLayerEvent = { event: string } & Record<string, string | number | boolean | null | undefined>;

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

export function pushToDataLayer(event: DataLayerEvent): void {
  try {
    window.dataLayer ??= [];
    window.dataLayer.push(event);
  } catch {
    // A broken tag manager must never break a page.
  }
}
