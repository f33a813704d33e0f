/**
 * A customer erased upstream (data protection erasure): sign-in, sessions and personal data go, the audit
 * trail stays. On the embedded database only: the erasure deletes a seeded demo customer, which a shared
 * PostgreSQL test database could not give back to the other test files.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { comparableBody, comparableHeaders, margaret, post } from '../../../test/identity-support';
import {
  MARGARET,
  signInTokens,
  tokenRequest,
  type CookieJar,
  type TokenSet,
} from '../../../test/oidc-support';

/** Every table that holds a customer's rows by customer id, as erasure must leave them. */
const customerTables = [
  'identity_user',
  'registration_request',
  'customer',
  'customer_preferences',
  'customer_agency',
  'customer_notification',
  'quote',
  'policy',
  'document_pack',
  'document',
  'billing_account',
  'billing_document',
  'contact_message',
  'customer_message',
  'customer_message_read',
  'message_queue',
  'outbox_message',
  'integration_event',
  'webhook_delivery',
];

/** Tables whose whole content an erasure of someone unknown must leave as it was. */
const allTables = [...customerTables, 'oidc_payload', 'document_file', 'audit_event', 'integration_record'];

/** Two uploaded PDFs: one only the erased customer's document refers to, one another customer's too. */
const theirsOnly = 'a'.repeat(64);
const shared = 'b'.repeat(64);
/** One of the customer's policies. */
const policyNumber = '102X4567891';

describe('erasing a customer', () => {
  let t: TestContext;
  let signedIn: TokenSet & { jar: CookieJar };
  let userId: string;
  let auditBefore: string[];
  let erased: boolean;
  let policyVersion: unknown;

  const rowsOf = async (table: string, customerId: string) =>
    Number(
      (
        await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} WHERE customer_id = $1`, [
          customerId,
        ])
      ).rows[0]!.n,
    );
  const providerRows = async (accountId: string) =>
    Number(
      (
        await t.db.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM oidc_payload
            WHERE payload->>'accountId' = $1 OR payload->'session'->>'accountId' = $1`,
          [accountId],
        )
      ).rows[0]!.n,
    );
  const auditIds = async (customerId: string) =>
    (
      await t.db.query<{ id: string }>(
        'SELECT id::text AS id FROM audit_event WHERE customer_id = $1 ORDER BY audit_event.id',
        [customerId],
      )
    ).rows.map((r) => r.id);
  const erase = (customerId: string) =>
    t.db.transaction((tx) => t.app.ctx.services.erasure.eraseCustomer(tx, customerId));
  const data = (path: string) =>
    t.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${signedIn.access_token}` } });
  const sessionMe = () =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/sessions/me',
      headers: { cookie: signedIn.jar.header('/api/v1/sessions/me') },
    });

  beforeAll(async () => {
    t = await createTestApp();
    signedIn = await signInTokens(t, MARGARET);
    userId = (await t.app.ctx.services.identity.getUserByCustomerId(margaret.customerId))!.id;
    // A contact message: stored, queued or kept in the outbox to the customer and to the insurer's inbox.
    const contact = await t.app.inject({
      method: 'POST',
      url: `/api/v1/messaging/contact/${margaret.customerId}`,
      headers: { authorization: `Bearer ${signedIn.access_token}` },
      payload: { productType: 'PHL', messageType: 'ChangeAddress', messageText: 'We move to Rose Cottage.' },
    });
    expect(contact.statusCode).toBe(200);
    // A registration the customer once made (the demo seed creates accounts without one).
    await t.db.query(
      `INSERT INTO registration_request (customer_id, user_id, email, created_at) VALUES ($1, $2, $3, $4)`,
      [margaret.customerId, userId, margaret.email, t.clock.now()],
    );

    for (const sha256 of [theirsOnly, shared]) {
      await t.db.query(
        `INSERT INTO document_file (sha256, size, content, created_at) VALUES ($1, 4, '\\x25504446', $2)`,
        [sha256, t.clock.now()],
      );
    }
    await t.db.query(
      `UPDATE document SET file_sha256 = f.sha, file_name = 'schedule.pdf'
         FROM (SELECT d.document_id, (ARRAY[$2, $3])[row_number() OVER (ORDER BY d.document_id)] AS sha
                 FROM document d WHERE d.customer_id = $1 LIMIT 2) f
        WHERE document.document_id = f.document_id`,
      [margaret.customerId, theirsOnly, shared],
    );
    await t.db.query(
      `UPDATE document SET file_sha256 = $2, file_name = 'schedule.pdf'
        WHERE document_id = (SELECT document_id FROM document WHERE customer_id = $1 LIMIT 1)`,
      ['C1000007', shared],
    );
    // A change of theirs not yet taken by the insurer, with its delivery to a receiver.
    const event = await t.db.query<{ id: string }>(
      `INSERT INTO integration_event (event_id, type, customer_id, occurred_at, data, position)
       VALUES ($1, 'customer.preferences.changed', $2, $3, '{"paperless": true}', 999999) RETURNING id::text`,
      [randomUUID(), margaret.customerId, t.clock.now()],
    );
    await t.db.query(
      `INSERT INTO webhook_delivery (endpoint_id, event_row_id, customer_id, position, next_attempt_at)
       VALUES ('test-receiver', $1, $2, 999999, $3)`,
      [event.rows[0]!.id, margaret.customerId, t.clock.now()],
    );

    // A message shown to them (the demo seed gives this customer none).
    await t.db.query(
      `INSERT INTO customer_notification (id, customer_id, notification_id)
       SELECT 'erasure-test', $1, notification_id FROM notification LIMIT 1`,
      [margaret.customerId],
    );
    // Their policy as the integration API loaded it (the demo seed may or may not have gone that way).
    await t.db.query(
      `INSERT INTO integration_record (record_type, record_key, version, version_order, content_sha256,
                                       customer_id, client_id, updated_at)
       VALUES ('policy', $2, '7', 7, $3, $1, 'test-system', $4) ON CONFLICT DO NOTHING`,
      [margaret.customerId, policyNumber, 'c'.repeat(64), t.clock.now()],
    );
    policyVersion = (
      await t.db.query<{ version: unknown }>(
        `SELECT version FROM integration_record WHERE record_type = 'policy' AND record_key = $1`,
        [policyNumber],
      )
    ).rows[0]!.version;

    // What there is to erase, so the checks after it cannot pass on an empty customer.
    expect(await providerRows(userId)).toBeGreaterThan(0);
    const empty = [];
    for (const table of customerTables.filter((n) => n !== 'message_queue')) {
      if ((await rowsOf(table, margaret.customerId)) === 0) empty.push(table);
    }
    expect(empty).toEqual([]);
    expect((await sessionMe()).statusCode).toBe(200);
    expect((await data(`/api/v1/profile/${margaret.customerId}`)).statusCode).toBe(200);
    auditBefore = await auditIds(margaret.customerId);
    expect(auditBefore.length).toBeGreaterThan(0);

    erased = await erase(margaret.customerId);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers true for a customer held, and leaves no row holding their customer id', async () => {
    expect(erased).toBe(true);
    const left = [];
    for (const table of customerTables) {
      const rows = await rowsOf(table, margaret.customerId);
      if (rows > 0) left.push({ table, rows });
    }
    expect(left).toEqual([]);
    expect(await providerRows(userId)).toBe(0);
  });

  it('deletes the uploaded files no other document refers to, and keeps the one another customer has', async () => {
    const { rows } = await t.db.query<{ sha256: string }>(
      'SELECT sha256 FROM document_file WHERE sha256 = ANY($1::text[])',
      [[theirsOnly, shared]],
    );
    expect(rows.map((r) => r.sha256)).toEqual([shared]);
  });

  it('leaves the bookkeeping of their records as tombstones, versions kept', async () => {
    const { rows } = await t.db.query(
      `SELECT version, removed, content_sha256 FROM integration_record
        WHERE record_type = 'policy' AND record_key = $1`,
      [policyNumber],
    );
    expect(rows).toEqual([{ version: policyVersion, removed: true, content_sha256: null }]);
  });

  it("refuses the access token's data calls with 401: her sign-in ended with the erasure", async () => {
    for (const path of [
      `/api/v1/profile/${margaret.customerId}`,
      `/api/v1/policy/${margaret.customerId}`,
      `/api/v1/policy/${margaret.customerId}/${policyNumber}`,
      `/api/v1/agency/${margaret.customerId}`,
    ]) {
      expect({ path, status: (await data(path)).statusCode }).toEqual({ path, status: 401 });
    }
  });

  it('no longer takes the refresh token at the token endpoint', async () => {
    const res = await tokenRequest(t, { grant_type: 'refresh_token', refresh_token: signedIn.refresh_token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('has ended the provider session: sessions/me answers 404 as Okta does', async () => {
    const res = await sessionMe();
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorCode: 'E0000007' });
  });

  it('answers signing in with their password exactly as it answers an unknown user', async () => {
    const theirs = await post(t.app, '/api/v1/authn', {
      username: margaret.email,
      password: margaret.password,
    });
    const unknown = await post(t.app, '/api/v1/authn', {
      username: 'nobody.at.all@example.co.uk',
      password: margaret.password,
    });
    expect(theirs.statusCode).toBe(401);
    expect(comparableBody(theirs)).toEqual(comparableBody(unknown));
    // Attempts are counted per username, and theirs counts the sign-in before the erasure.
    const headers = (res: typeof theirs) => {
      const { 'x-rate-limit-remaining': _remaining, ...rest } = comparableHeaders(res);
      return rest;
    };
    expect(headers(theirs)).toEqual(headers(unknown));
  });

  it('finds no match for a registration with their details', async () => {
    const res = await post(t.app, '/Registration', {
      emailAddress: margaret.email,
      dateOfBirth: '1952-04-17',
      postCode: 'HR8 2AB',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK_2' });
    expect(await rowsOf('identity_user', margaret.customerId)).toBe(0);
  });

  it('keeps their audit rows, and records the erasure with counts only', async () => {
    const after = await auditIds(margaret.customerId);
    expect(after.slice(0, auditBefore.length)).toEqual(auditBefore);
    const { rows } = await t.db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM audit_event WHERE customer_id = $1 AND event_id = 'customer.erased'`,
      [margaret.customerId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.details).toMatchObject({ signInAccounts: 1, customerRecord: true });
    expect(JSON.stringify(rows[0]!.details)).not.toMatch(/margaret|thompson|HR8|07700/i);
  });

  it('is harmless a second time: false, and nothing written', async () => {
    const audit = await auditIds(margaret.customerId);
    expect(await erase(margaret.customerId)).toBe(false);
    expect(await auditIds(margaret.customerId)).toEqual(audit);
  });

  it('answers false for a customer never held, and changes nothing', async () => {
    const count = async () =>
      Promise.all(
        allTables.map(async (table) => ({
          table,
          rows: (await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`)).rows[0]!.n,
        })),
      );
    const before = await count();
    expect(await erase('C9999999')).toBe(false);
    expect(await count()).toEqual(before);
  });
});
