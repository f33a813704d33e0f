import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databases, type TestContext } from '../../../test/helpers';
import { signIn, type SignedIn } from '../../../test/sign-in';

const MARGARET = 'margaret.thompson@example.co.uk';
const DAVID = 'david.okafor@example.co.uk';

interface AuditRow {
  source: string;
  event_id: string;
  customer_id: string | null;
  on_behalf_of: string | null;
  session_id: string | null;
  correlation_id: string | null;
  is_success: boolean | null;
  details: Record<string, unknown>;
}

/** The preferences the seed gives Margaret (made the first-sign-in choice) and David (has not). */
const SEEDED_PREFERENCES = `
  UPDATE customer_preferences SET marketing_email = NULL, marketing_phone = NULL, marketing_post = NULL,
    marketing_online = CASE customer_id WHEN 'C1000001' THEN true END, paperless = customer_id = 'C1000001',
    correspondence_address_lines = '[]'::jsonb, notice_email = false, notice_text = false
  WHERE customer_id IN ('C1000001', 'C1000002')`;

describe.each(databases())('account service on $name: preferences and status token', ({ open }) => {
  let t: TestContext;
  let margaret: SignedIn;
  let david: SignedIn;
  /** Audit rows after this one are this run's: a shared PostgreSQL test database keeps earlier runs'. */
  let lastAuditId = 0;

  beforeAll(async () => {
    t = await createTestApp({}, { db: await open() });
    // A shared PostgreSQL test database keeps what earlier runs saved: back to the seeded choices.
    await t.db.query(SEEDED_PREFERENCES);
    lastAuditId = Number(
      (await t.db.query<{ id: string }>('SELECT coalesce(max(id), 0)::text AS id FROM audit_event')).rows[0]!
        .id,
    );
    margaret = await signIn(t, MARGARET);
    david = await signIn(t, DAVID);
  });
  afterAll(async () => {
    // ...and leaves them seeded for the other test files that read them.
    await t.db.query(SEEDED_PREFERENCES);
    await t.close();
    await t.db.close();
  });

  const as = (who: SignedIn, extra: Record<string, string> = {}) => ({
    authorization: who.authorization,
    ...extra,
  });

  const audits = async (customerId: string) =>
    (
      await t.db.query<AuditRow>(
        `SELECT source, event_id, customer_id, on_behalf_of, session_id, correlation_id, is_success, details
         FROM audit_event WHERE customer_id = $1 AND event_id LIKE 'preferences.%' AND id > $2 ORDER BY id`,
        [customerId, lastAuditId],
      )
    ).rows;

  const patch = (who: SignedIn, customerId: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/v1/Preferences/${customerId}`,
      headers: as(who, headers),
      payload: payload as object,
    });

  const margaretAddress = [
    'Bluebell Cottage',
    '12 Church Lane',
    'Little Harwood',
    'Ledbury',
    'Herefordshire',
    'HR8 2AB',
  ];

  it('signs the demo customers in with their own customer ids', () => {
    expect(margaret.customerId).toBe('C1000001');
    expect(david.customerId).toBe('C1000002');
  });

  it('answers user, marketing and correspondence preferences of a customer who made the first-sign-in choice', async () => {
    const user = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000001/user',
      headers: as(margaret),
    });
    expect(user.statusCode).toBe(200);
    expect(user.json()).toEqual({
      email: MARGARET,
      marketingPreferences: { email: null, phone: null, post: null, online: true },
      correspondencePreferences: { paperless: true, addressLines: margaretAddress },
      // Paperless: always emailed of new documents; her mobile on record can be chosen for texts.
      noticePreferences: { email: true, emailRequired: true, text: false, textTo: '+44 XXXX XXX123' },
      registrationJourney: false,
    });

    const marketing = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000001/marketing',
      headers: as(margaret),
    });
    expect(marketing.json()).toEqual({ email: null, phone: null, post: null, online: true });

    const correspondence = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000001/correspondence',
      headers: as(margaret),
    });
    expect(correspondence.json()).toEqual({ paperless: true, addressLines: margaretAddress });
  });

  it('shows a customer who has not made the choice as still on the registration journey', async () => {
    const user = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000002/user',
      headers: as(david),
    });
    expect(user.statusCode).toBe(200);
    expect(user.json()).toEqual({
      email: DAVID,
      marketingPreferences: { email: null, phone: null, post: null, online: null },
      // An empty address line is left out.
      correspondencePreferences: {
        paperless: false,
        addressLines: ['Home Farm', 'Station Road', 'Market Weighton', 'East Yorkshire', 'YO43 3DT'],
      },
      // On paper and no mobile on record: told of nothing, and texts cannot be chosen.
      noticePreferences: { email: false, emailRequired: false, text: false, textTo: null },
      registrationJourney: true,
    });
  });

  it.each([
    ['GET', '/api/v1/Preferences/C1000002/user'],
    ['GET', '/api/v1/Preferences/C1000002/marketing'],
    ['GET', '/api/v1/Preferences/C1000002/correspondence'],
    ['PATCH', '/api/v1/Preferences/C1000002'],
    ['POST', '/api/v1/customers/C1000002/status-token'],
  ] as const)('%s %s: 401 without a token, 404 with another customer’s token', async (method, url) => {
    const payload = method === 'PATCH' ? { marketingPreferences: { online: false } } : undefined;
    const anonymous = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED', correlationId: expect.any(String) });

    const forged = await t.app.inject({ method, url, headers: { authorization: 'Bearer not.a.token' } });
    expect(forged.statusCode).toBe(401);

    const other = await t.app.inject({ method, url, headers: as(margaret), ...(payload ? { payload } : {}) });
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe('NOT_FOUND');
    // The 404 reads the same as for a customer that does not exist.
    const unknown = await t.app.inject({
      method,
      url: url.replace('C1000002', 'C9999999'),
      headers: as(margaret),
      ...(payload ? { payload } : {}),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(other.json().message);
  });

  it('changed nothing for David when others were refused', async () => {
    expect(await audits('C1000002')).toEqual([]);
    const marketing = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000002/marketing',
      headers: as(david),
    });
    expect(marketing.json().online).toBeNull();
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an empty marketing change', { marketingPreferences: {} }, 'marketingPreferences'],
    [
      'a marketing value that is not a boolean',
      { marketingPreferences: { email: 'yes' } },
      'marketingPreferences.email',
    ],
    ['a null marketing value', { marketingPreferences: { online: null } }, 'marketingPreferences.online'],
    ['an unknown top-level field', { marketingPreferences: { email: true }, customerId: 'C1000002' }, 'body'],
    ['an unknown marketing channel', { marketingPreferences: { fax: true } }, 'marketingPreferences'],
    [
      'correspondence without paperless',
      { correspondencePreferences: { addressLines: [] } },
      'correspondencePreferences.paperless',
    ],
    [
      'too many address lines',
      { correspondencePreferences: { paperless: false, addressLines: Array(8).fill('line') } },
      'correspondencePreferences.addressLines',
    ],
    [
      'an over-long address line',
      { correspondencePreferences: { paperless: false, addressLines: ['x'.repeat(101)] } },
      'correspondencePreferences.addressLines.0',
    ],
    ['an empty notice change', { noticePreferences: {} }, 'noticePreferences'],
    [
      'a notice choice that is not a boolean',
      { noticePreferences: { text: 'yes' } },
      'noticePreferences.text',
    ],
    ['an unknown notice channel', { noticePreferences: { post: true } }, 'noticePreferences'],
  ])('PATCH refuses %s with 400 and changes nothing', async (_name, payload, field) => {
    const res = await patch(david, 'C1000002', payload);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('BAD_REQUEST');
    expect(Object.keys(body.fieldErrors ?? {})).toContain(field);
    expect(await audits('C1000002')).toEqual([]);
  });

  it('PATCH refuses a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/Preferences/C1000002',
      headers: as(david, { 'content-type': 'application/json' }),
      payload: '{"marketingPreferences":',
    });
    expect(res.statusCode).toBe(400);
    expect(await audits('C1000002')).toEqual([]);
  });

  it('saves the first-sign-in step: marketing choice, paperless on, address lines cleared, audited together', async () => {
    const res = await patch(
      david,
      'C1000002',
      {
        marketingPreferences: { email: true, phone: false, post: true, online: true },
        correspondencePreferences: { paperless: true, addressLines: [] },
      },
      { 'x-sessionid': 'david-session-1', 'x-correlationid': 'corr-first-step' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      marketingPreferences: { email: true, phone: false, post: true, online: true },
      correspondencePreferences: {
        paperless: true,
        addressLines: ['Home Farm', 'Station Road', 'Market Weighton', 'East Yorkshire', 'YO43 3DT'],
      },
      noticePreferences: { email: true, emailRequired: true, text: false, textTo: null },
    });

    const user = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000002/user',
      headers: as(david),
    });
    expect(user.json()).toMatchObject({
      marketingPreferences: { email: true, phone: false, post: true, online: true },
      registrationJourney: false,
    });

    expect(await audits('C1000002')).toEqual([
      {
        source: 'server',
        event_id: 'preferences.marketing.updated',
        customer_id: 'C1000002',
        on_behalf_of: expect.any(String),
        session_id: 'david-session-1',
        correlation_id: 'corr-first-step',
        is_success: true,
        details: {
          marketingChannels: 'email,online,post',
          marketingConsent: true,
          changedChannels: ['email', 'online', 'phone', 'post'],
        },
      },
      {
        source: 'server',
        event_id: 'preferences.correspondence.updated',
        customer_id: 'C1000002',
        on_behalf_of: expect.any(String),
        session_id: 'david-session-1',
        correlation_id: 'corr-first-step',
        is_success: true,
        details: {
          correspondencePreference: 'paperless',
          previousCorrespondencePreference: 'paper',
          addressLinesReplaced: true,
        },
      },
    ]);
  });

  it('changes one marketing channel, leaving the others and writing one audit row', async () => {
    const before = (await audits('C1000001')).length;
    const res = await patch(margaret, 'C1000001', { marketingPreferences: { online: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json().marketingPreferences).toEqual({ email: null, phone: null, post: null, online: false });
    expect(res.json().correspondencePreferences).toEqual({ paperless: true, addressLines: margaretAddress });

    const rows = await audits('C1000001');
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({
      event_id: 'preferences.marketing.updated',
      details: { marketingChannels: '', marketingConsent: false, changedChannels: ['online'] },
    });
  });

  it('switches to paper with a separate correspondence address, and back to the address on record', async () => {
    const lines = ['PO Box 12', 'Ledbury', 'HR8 9ZZ'];
    const paper = await patch(margaret, 'C1000001', {
      correspondencePreferences: { paperless: false, addressLines: lines },
    });
    expect(paper.statusCode).toBe(200);
    expect(paper.json().correspondencePreferences).toEqual({ paperless: false, addressLines: lines });
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000001/correspondence',
      headers: as(margaret),
    });
    expect(read.json()).toEqual({ paperless: false, addressLines: lines });
    expect((await audits('C1000001')).at(-1)).toMatchObject({
      event_id: 'preferences.correspondence.updated',
      details: { correspondencePreference: 'paper', previousCorrespondencePreference: 'paperless' },
    });

    // paperless alone keeps the stored lines; [] returns to the address on record.
    const paperlessOnly = await patch(margaret, 'C1000001', {
      correspondencePreferences: { paperless: true },
    });
    expect(paperlessOnly.json().correspondencePreferences).toEqual({ paperless: true, addressLines: lines });
    const cleared = await patch(margaret, 'C1000001', {
      correspondencePreferences: { paperless: true, addressLines: [] },
    });
    expect(cleared.json().correspondencePreferences).toEqual({
      paperless: true,
      addressLines: margaretAddress,
    });
  });

  it('keeps email notices on while paperless and refuses texts with no mobile, changing nothing', async () => {
    const before = (await audits('C1000001')).length;
    const noEmail = await patch(margaret, 'C1000001', { noticePreferences: { email: false, text: true } });
    expect(noEmail.statusCode).toBe(422);
    expect(noEmail.json()).toMatchObject({
      code: 'NOTICE_CHOICE_REFUSED',
      fieldErrors: {
        'noticePreferences.email':
          'While your documents are paperless, we always email you when one is ready',
      },
    });
    // Email off with paper in the same change is a choice that can be made.
    const offWithPaper = await patch(margaret, 'C1000001', {
      correspondencePreferences: { paperless: false },
      noticePreferences: { email: false },
    });
    expect(offWithPaper.statusCode).toBe(200);
    expect(offWithPaper.json().noticePreferences).toEqual({
      email: false,
      emailRequired: false,
      text: false,
      textTo: '+44 XXXX XXX123',
    });
    await patch(margaret, 'C1000001', { correspondencePreferences: { paperless: true } });
    expect((await audits('C1000001')).length).toBe(before + 3);

    const davidBefore = (await audits('C1000002')).length;
    const noMobile = await patch(david, 'C1000002', { noticePreferences: { text: true } });
    expect(noMobile.statusCode).toBe(422);
    expect(noMobile.json().fieldErrors).toEqual({
      'noticePreferences.text': 'Add a mobile number to your details to get text messages',
    });
    expect(await audits('C1000002')).toHaveLength(davidBefore);
  });

  it('saves texts about new documents, audited and sent to the insurer as a consent event', async () => {
    const res = await patch(
      margaret,
      'C1000001',
      { noticePreferences: { text: true } },
      { 'x-sessionid': 'margaret-session-1', 'x-correlationid': 'corr-notices' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().noticePreferences).toEqual({
      email: true,
      emailRequired: true,
      text: true,
      textTo: '+44 XXXX XXX123',
    });
    expect((await audits('C1000001')).at(-1)).toMatchObject({
      event_id: 'preferences.notices.updated',
      session_id: 'margaret-session-1',
      correlation_id: 'corr-notices',
      details: { noticeEmail: true, noticeText: true, changed: ['text'] },
    });
    const { rows } = await t.db.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM integration_event WHERE customer_id = 'C1000001' AND type = 'customer.notices.updated'
        ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]?.data).toMatchObject({ email: true, text: true, previous: { email: true, text: false } });
    const user = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000001/user',
      headers: as(margaret),
    });
    expect(user.json().noticePreferences).toMatchObject({ text: true });
  });

  it('issues a short-lived status token for the signed-in customer, with an empty body or {}', async () => {
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/v1/customers/C1000001/status-token',
      headers: as(margaret, { 'content-type': 'application/json' }),
    });
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['cache-control']).toBe('no-store');
    const { token, expiresAt } = empty.json<{ token: string; expiresAt: string }>();
    expect(new Date(expiresAt).getTime() - t.clock.now().getTime()).toBe(5 * 60_000);
    expect(await t.app.ctx.services.oidc.verifyStatusToken(token)).toEqual({ customerId: 'C1000001' });

    const braces = await t.app.inject({
      method: 'POST',
      url: '/api/v1/customers/C1000001/status-token',
      headers: as(margaret),
      payload: {},
    });
    expect(braces.statusCode).toBe(200);
    expect(braces.json().token).not.toBe(token);

    const withBody = await t.app.inject({
      method: 'POST',
      url: '/api/v1/customers/C1000001/status-token',
      headers: as(margaret),
      payload: { customerId: 'C1000002' },
    });
    expect(withBody.statusCode).toBe(400);
  });

  it('refuses every call once the access token has expired', async () => {
    t.clock.advance(t.config.oidc.accessTokenTtl * 1000 + 1000);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/Preferences/C1000001/user',
      headers: as(margaret),
    });
    expect(res.statusCode).toBe(401);
  });
});
