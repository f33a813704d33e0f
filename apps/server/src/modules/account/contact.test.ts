import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';
import { outbox } from '../../../test/identity-support';
import { CONTACT_LIMIT } from './contact.service';

const inbox = 'customer.service@portal.example.co.uk';
const message = {
  productType: 'PHL',
  messageType: 'ChangeAddress',
  messageText: 'We move on 1 March to Rose Cottage.',
};

describe.each(databases())('contact us on $name', ({ open }) => {
  let t: TestContext;
  let helen: SignedIn;
  let james: SignedIn;
  /** Helen's stored messages before this run: a shared PostgreSQL test database keeps earlier runs' rows. */
  let helenBefore = 0;

  beforeAll(async () => {
    t = await createTestApp({}, { db: await open() });
    // A shared PostgreSQL test database keeps earlier runs' counters (on the same test clock): start afresh.
    await t.db.query(`DELETE FROM rate_counter_hit WHERE key LIKE 'contact:%'`);
    helen = await signIn(t, 'helen.dawson@example.co.uk');
    james = await signIn(t, 'james.carter@example.co.uk');
    helenBefore = Number(await stored(helen.customerId));
  });
  afterAll(async () => {
    await t.close();
    await t.db.close();
  });

  const send = (who: SignedIn | null, customerId: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/messaging/contact/${customerId}`,
      payload: body as object,
      headers: who ? { authorization: who.authorization } : {},
    });
  const stored = async (customerId: string) =>
    (
      await t.db.query<{ n: string }>(
        'SELECT count(*)::text AS n FROM contact_message WHERE customer_id = $1',
        [customerId],
      )
    ).rows[0]!.n;

  it('stores the message, sends it to the inbox, acknowledges it to the customer and audits it without its text', async () => {
    // A shared PostgreSQL test database keeps earlier runs' rows: count this run's only.
    const before = Number(await stored(helen.customerId));
    const since = (await t.db.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now;
    const res = await send(helen, helen.customerId, message);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(Number(await stored(helen.customerId))).toBe(before + 1);
    const [toUs] = await outbox(t.app, inbox);
    expect(toUs!.kind).toBe('contact-message');
    expect(toUs!.body).toContain('We move on 1 March to Rose Cottage.');
    expect(toUs!.body).toContain(helen.customerId);
    const [ack] = await outbox(t.app, 'helen.dawson@example.co.uk');
    expect(ack!.kind).toBe('contact-acknowledgement');
    const audit = await t.db.query<{ details: unknown }>(
      `SELECT details FROM audit_event WHERE customer_id = $1 AND event_id = 'contact.sent' AND occurred_at >= $2`,
      [helen.customerId, since],
    );
    expect(audit.rows).toHaveLength(1);
    expect(JSON.stringify(audit.rows[0]!.details)).not.toContain('Rose Cottage');
  });

  it('refuses a missing field, an over-long text and a pair the page does not offer (400), storing nothing', async () => {
    const before = await stored(james.customerId);
    for (const body of [
      { ...message, messageText: '' },
      { ...message, messageText: 'x'.repeat(501) },
      { ...message, messageType: 'Holiday' },
      { ...message, productType: 'ZZZ' },
      // A pair whose content sends the customer elsewhere (claims) is not a message.
      { ...message, messageType: 'Claim' },
      { productType: 'PHL', messageType: 'General' },
      { ...message, extra: true },
    ]) {
      const res = await send(james, james.customerId, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json()).toMatchObject({ correlationId: expect.any(String) });
    }
    expect(await send(james, james.customerId, { ...message, messageText: 'x'.repeat(500) })).toMatchObject({
      statusCode: 200,
    });
    expect(Number(await stored(james.customerId))).toBe(Number(before) + 1);
  });

  it('answers 404 for another customer and 401 without a token', async () => {
    expect((await send(james, helen.customerId, message)).statusCode).toBe(404);
    expect((await send(null, helen.customerId, message)).statusCode).toBe(401);
  });

  it(`allows ${CONTACT_LIMIT} messages an hour per customer, then 429 with Retry-After`, async () => {
    // Counted from this run's messages: the counters are this test file's own, the stored rows are not.
    const sent = Number(await stored(helen.customerId)) - helenBefore;
    expect(sent).toBeGreaterThan(0);
    for (let i = sent; i < CONTACT_LIMIT; i++)
      expect((await send(helen, helen.customerId, message)).statusCode).toBe(200);
    const refused = await send(helen, helen.customerId, message);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(await stored(helen.customerId)) - helenBefore).toBe(CONTACT_LIMIT);
    t.clock.advance(60 * 60 * 1000 + 1000);
    // An hour on, the access token has expired too: a fresh sign-in, and the window has moved on.
    helen = await signIn(t, 'helen.dawson@example.co.uk');
    expect((await send(helen, helen.customerId, message)).statusCode).toBe(200);
  });

  it("answers 503 with Retry-After and stores nothing when the insurer's inbox cannot take the message", async () => {
    // An SMTP server that is not there: the port was free a moment ago and nothing listens on it now.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const down = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` }, { db: t.db, clock: t.clock });
    try {
      const jamesThere = await signIn(down, 'james.carter@example.co.uk');
      const before = await stored(jamesThere.customerId);
      const since = (await t.db.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now;
      const res = await down.app.inject({
        method: 'POST',
        url: `/api/v1/messaging/contact/${jamesThere.customerId}`,
        payload: message,
        headers: { authorization: jamesThere.authorization },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: 'DELIVERY_FAILED',
        message: 'Your message could not be sent. Please try again.',
        correlationId: expect.any(String),
      });
      expect(await stored(jamesThere.customerId)).toBe(before);
      const audit = await t.db.query(
        `SELECT 1 FROM audit_event WHERE customer_id = $1 AND event_id = 'contact.sent' AND occurred_at >= $2`,
        [jamesThere.customerId, since],
      );
      expect(audit.rowCount).toBe(0);
    } finally {
      await down.close();
    }
  });
});
