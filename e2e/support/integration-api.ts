import { expect } from '@playwright/test';
import type { ProductionPortal } from './production-portal';

/**
 * The insurer's side of the integration API, as a system of record calls it: a client-credentials token
 * from the portal's provider, then JSON upserts and PDF uploads with that bearer token. Each call must
 * succeed; a refusal fails the journey with the portal's answer, which names the field.
 */
export async function integrationClient(portal: ProductionPortal, scopes: readonly string[]) {
  const basic = Buffer.from(
    `${encodeURIComponent(portal.client.clientId)}:${encodeURIComponent(portal.client.secret)}`,
  ).toString('base64');
  const tokenResponse = await fetch(`${portal.url}/oauth2/default/v1/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' ') }),
  });
  expect(tokenResponse.status, 'the token endpoint gives the client a token').toBe(200);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };

  async function call(method: string, path: string, body: BodyInit, contentType: string) {
    const res = await fetch(`${portal.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body,
    });
    const text = await res.text();
    return { status: res.status, json: () => JSON.parse(text) as unknown, text };
  }

  return {
    /** Upserts one record; answers the integration result ({type, key, status, version}). */
    async put(path: string, record: Record<string, unknown>): Promise<{ status: string }> {
      const res = await call('PUT', path, JSON.stringify(record), 'application/json');
      expect(res.status, `PUT ${path}: ${res.text}`).toBe(200);
      return res.json() as { status: string };
    },
    /** Uploads a PDF's bytes; answers its id (sha256) and size. */
    async upload(pdf: Buffer): Promise<{ status: number; sha256: string; size: number }> {
      const res = await call('POST', '/integration/v1/files', new Uint8Array(pdf), 'application/pdf');
      expect([200, 201], `POST /integration/v1/files: ${res.text}`).toContain(res.status);
      return { status: res.status, ...(res.json() as { sha256: string; size: number }) };
    },
  };
}
