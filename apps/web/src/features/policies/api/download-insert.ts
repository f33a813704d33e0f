import { downloadDocument } from '../../../lib/download-document';

/**
 * A policy document insert (spec customer-data §2): a standard leaflet content links to (the content
 * service's media), not customer data, so it needs no token. Saved like the policy's own documents; a
 * blank address fails with "Blank document URL" and the failed-download event (spec §8).
 */
export function downloadInsert(url: string, title: string, policyNumber: string) {
  return downloadDocument(
    url,
    async (onHeaders) => {
      const response = await fetch(new URL(url, window.location.href), { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      onHeaders(response.headers);
      return response.blob();
    },
    { documentTitle: title, policyNumber, elementTitle: 'policy document inserts' },
  );
}
