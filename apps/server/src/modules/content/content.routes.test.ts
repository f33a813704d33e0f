import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@portal/contracts/call';
import {
  featureDefinitions,
  navigation,
  pageContent,
  siteSettings,
  type PageContent,
} from '@portal/contracts/content';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { CONTENT_CACHE_MS } from './content.service';

const settingsUrl = '/api/v1/content/getbytype';
const pageUrl = '/api/v1/content/getByRelativeUrl';
const navUrl = '/api/v1/content/getnavigation';

const pageAt = (relativeUrl: string) => `${pageUrl}?relativeUrl=${encodeURIComponent(relativeUrl)}`;

describe('content service', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function expectBadRequest(url: string, field?: string) {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = errorEnvelope.parse(res.json());
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.correlationId).toBe(res.headers['x-correlationid']);
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    if (field) expect(Object.keys(body.fieldErrors ?? {})).toContain(field);
    return body;
  }

  describe('GET getbytype', () => {
    it('answers the site settings as an array of one, valid against the contract', async () => {
      const res = await t.app.inject({ method: 'GET', url: `${settingsUrl}?type=SiteSettings` });
      expect(res.statusCode).toBe(200);
      const [settings, ...rest] = res.json() as unknown[];
      expect(rest).toHaveLength(0);
      const s = siteSettings.parse(settings);
      expect(s).toMatchObject({
        loginPage: '/login',
        accountRootPage: '/account',
        dashboardPage: '/account/dashboard',
        maintenancePage: '/maintenance',
        errorPage: '/error',
        infinityPhoneTracking: '0800 123 4567',
        userCacheTTL: 1,
        idleTimeoutMinutes: 15,
        idleCountdownSeconds: 60,
        isMaintenanceMode: false,
        isErrorContext: false,
        featureFlagKey: 'sdk-portal-local',
      });
      expect(s.globalPasswordRequirementsBlock).toMatchObject({
        minPasswordLength: 12,
        lowercaseChar: false,
        uppercaseChar: false,
        numberChar: false,
        specialChar: false,
      });
      expect(s.policyTypeMappingText).toMatchObject({ PHL: 'Home Insurance', MPC: 'Motor Insurance' });
      for (const modal of [
        s.logOutModalWindowBlock,
        s.welcomeModalWindowBlock,
        s.welcomeBackWindowBlock,
        s.gwInterstitialModalWindowBlock,
        s.gwInterstitialBespokeModalWindowBlock,
      ]) {
        expect(modal.heading.length).toBeGreaterThan(0);
      }
      expect(s.logOutModalWindowBlock.primaryCallsToAction[0]?.linkType).toBe('Logout');
      expect(s.fallback.heading).toBe('Something went wrong');
      expect(s.loaderText).toBe("Thank you for being patient. We're just loading your details.");
      expect(s.serviceAlert).toMatchObject({ visible: false });
    });

    it('marks the error=true variant as the error context and changes nothing else', async () => {
      const normal = await t.app.inject({ method: 'GET', url: `${settingsUrl}?type=SiteSettings` });
      const errorCtx = await t.app.inject({
        method: 'GET',
        url: `${settingsUrl}?type=SiteSettings&error=true`,
      });
      expect(errorCtx.statusCode).toBe(200);
      const [a] = normal.json() as Array<Record<string, unknown>>;
      const [b] = errorCtx.json() as Array<Record<string, unknown>>;
      expect(b?.isErrorContext).toBe(true);
      expect({ ...b, isErrorContext: false }).toEqual(a);
      expect(errorCtx.headers.etag).not.toBe(normal.headers.etag);
      const explicitFalse = await t.app.inject({
        method: 'GET',
        url: `${settingsUrl}?type=SiteSettings&error=false`,
      });
      expect(explicitFalse.json()).toEqual(normal.json());
    });

    it('is cacheable briefly, with an ETag that answers 304 when unchanged', async () => {
      const res = await t.app.inject({ method: 'GET', url: `${settingsUrl}?type=SiteSettings` });
      expect(res.headers['cache-control']).toBe('public, no-cache');
      const etag = res.headers.etag;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      const again = await t.app.inject({
        method: 'GET',
        url: `${settingsUrl}?type=SiteSettings`,
        headers: { 'if-none-match': String(etag) },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const other = await t.app.inject({
        method: 'GET',
        url: `${settingsUrl}?type=SiteSettings`,
        headers: { 'if-none-match': '"something-else"' },
      });
      expect(other.statusCode).toBe(200);
    });

    it('refuses a missing, unknown, repeated or malformed type, and a bad error flag', async () => {
      const missing = await expectBadRequest(settingsUrl, 'type');
      expect(missing.fieldErrors?.type).toBe('Required');
      await expectBadRequest(`${settingsUrl}?type=`, 'type');
      const other = await expectBadRequest(`${settingsUrl}?type=Navigation`, 'type');
      expect(other.fieldErrors?.type).toMatch(/SiteSettings/);
      await expectBadRequest(`${settingsUrl}?type=SiteSettings&type=SiteSettings`, 'type');
      await expectBadRequest(`${settingsUrl}?type=Site%00Settings`, 'type');
      await expectBadRequest(`${settingsUrl}?type=${'S'.repeat(3000)}`, 'type');
      await expectBadRequest(`${settingsUrl}?type=SiteSettings&error=yes`, 'error');
      await expectBadRequest(`${settingsUrl}?type=SiteSettings&error=true&error=true`, 'error');
    });
  });

  describe('GET getByRelativeUrl', () => {
    async function getPage(relativeUrl: string): Promise<PageContent> {
      const res = await t.app.inject({ method: 'GET', url: pageAt(relativeUrl) });
      expect(res.statusCode, relativeUrl).toBe(200);
      return pageContent.parse(res.json());
    }

    it('answers the page at a path, with its type, fields and messages', async () => {
      const login = await getPage('/login');
      expect(login.type).toBe('LoginPage');
      expect(login.url).toBe('/login');
      expect(login.requiresAuthentication).toBe(false);
      expect(login.meta.title).toMatch(/Sign in/);
      expect(login.fields.map((f) => [f.name, f.type, f.autocomplete])).toEqual([
        ['email', 'email', 'username webauthn'],
        ['password', 'password', 'current-password'],
      ]);
      expect(login.messages.wrongCredentialsMessage).toBeTruthy();
      expect(login.experiments[0]?.key).toBe('login-intro-variant');

      const dashboard = await getPage('/account/dashboard');
      expect(dashboard).toMatchObject({ type: 'DashboardPage', requiresAuthentication: true });
      expect(dashboard.blocks.map((b) => b.type)).toContain('policiesGrid');

      const activate = await getPage('/register/activate');
      expect(activate).toMatchObject({ type: 'PasswordPage', mode: 'activation' });
    });

    it('normalises the path: query, fragment, trailing and repeated slashes and case are ignored', async () => {
      for (const variant of [
        '/account/policies',
        '/account/policies/',
        '/account/policies/?id=102X4567891',
        '/Account/Policies?id=102X4567891#cover',
        '/ACCOUNT//POLICIES//',
        '/account/policies#top',
      ]) {
        const page = await getPage(variant);
        expect(page.type, variant).toBe('PolicyPage');
        expect(page.url).toBe('/account/policies');
      }
      expect((await getPage('/Login/Verify/Challenge/')).type).toBe('AuthenticationChallengePage');
    });

    it('answers 404 with the error envelope for an unknown page', async () => {
      for (const unknown of ['/no-such-page', '/', '/login/extra', '/account/policies/cover/more']) {
        const res = await t.app.inject({ method: 'GET', url: pageAt(unknown) });
        expect(res.statusCode, unknown).toBe(404);
        const body = errorEnvelope.parse(res.json());
        expect(body.code).toBe('NOT_FOUND');
        expect(body.message).toBe('There is no content at that address.');
      }
    });

    it('refuses missing, empty, oversized, repeated, relative and control-character paths with 400', async () => {
      await expectBadRequest(pageUrl, 'relativeUrl');
      await expectBadRequest(`${pageUrl}?relativeUrl=`, 'relativeUrl');
      await expectBadRequest(`${pageUrl}?relativeurl=/login`, 'relativeUrl');
      await expectBadRequest(pageAt(`/${'a'.repeat(2048)}`), 'relativeUrl');
      await expectBadRequest(pageAt('login'), 'relativeUrl');
      await expectBadRequest(pageAt('https://evil.example/login'), 'relativeUrl');
      await expectBadRequest(pageAt('//evil.example/login'), 'relativeUrl');
      await expectBadRequest(`${pageUrl}?relativeUrl=a&relativeUrl=b`, 'relativeUrl');
      await expectBadRequest(`${pageUrl}?relativeUrl=/login&relativeUrl=/login`, 'relativeUrl');
      await expectBadRequest(`${pageUrl}?relativeUrl=/login%00`, 'relativeUrl');
      await expectBadRequest(`${pageUrl}?relativeUrl=/login%0Aset-cookie`, 'relativeUrl');
      await expectBadRequest(`${pageUrl}?relativeUrl=/login%7F`, 'relativeUrl');
      await expectBadRequest(`${pageUrl}?relativeUrl[a]=/login`);
      // A huge query string is refused before it is parsed.
      await expectBadRequest(`${pageUrl}?relativeUrl=/login&pad=${'x'.repeat(8000)}`, 'query');
    });

    it('accepts a path of exactly 2 KB (and answers 404 for it)', async () => {
      const res = await t.app.inject({ method: 'GET', url: pageAt(`/${'a'.repeat(2047)}`) });
      expect(res.statusCode).toBe(404);
    });

    it('serves the media that pages refer to', async () => {
      const success = await getPage('/register/password-set');
      expect(success.type).toBe('FormSuccessPage');
      const src = success.type === 'FormSuccessPage' ? success.image?.src : undefined;
      expect(src).toBe('/api/v1/content/media/success.svg');
      const image = await t.app.inject({ method: 'GET', url: String(src) });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(image.body).toMatch(/^<svg/);
      const leaflet = await t.app.inject({ method: 'GET', url: '/api/v1/content/media/how-to-complain.pdf' });
      expect(leaflet.statusCode).toBe(200);
      expect(leaflet.headers['content-type']).toBe('application/pdf');
      expect(leaflet.headers['content-disposition']).toBe('attachment; filename="how-to-complain.pdf"');
      expect(leaflet.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      for (const bad of ['nope.svg', '..%2Fsite-settings.json', 'success.SVG', '.hidden.svg']) {
        const res = await t.app.inject({ method: 'GET', url: `/api/v1/content/media/${bad}` });
        expect(res.statusCode, bad).toBe(404);
      }
    });
  });

  describe('GET getnavigation', () => {
    it('answers two lists: header (main and utility links) and footer', async () => {
      const res = await t.app.inject({ method: 'GET', url: navUrl });
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toBeTruthy();
      const nav = navigation.parse(res.json());
      expect(Object.keys(res.json() as object).sort()).toEqual(['footer', 'header']);
      const main = nav.header.filter((i) => i.group === 'main');
      const utility = nav.header.filter((i) => i.group === 'utility');
      expect(main.map((i) => i.url)).toEqual(
        expect.arrayContaining([
          '/account/dashboard',
          '/account/policies',
          '/account/bills-and-payments',
          '/contact-us',
        ]),
      );
      expect(main.every((i) => i.requiresAuthentication)).toBe(true);
      expect(utility.length).toBeGreaterThan(0);
      expect(nav.footer.map((i) => i.url)).toEqual(
        expect.arrayContaining(['/help/accessibility', '/help/privacy']),
      );
      expect(nav.header.find((i) => i.id === 'nav-policies')?.dynamicChildren).toBe('policies');
    });
  });

  describe('GET /api/features/:clientKey', () => {
    it('answers the flag definitions for our SDK key and 404 for any other', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/features/sdk-portal-local' });
      expect(res.statusCode).toBe(200);
      const defs = featureDefinitions.parse(res.json());
      expect(defs.features['login-intro-variant']?.rules?.[0]?.variations).toEqual([
        'control',
        'reassurance',
      ]);
      const other = await t.app.inject({ method: 'GET', url: '/api/features/sdk-someone-else' });
      expect(other.statusCode).toBe(404);
      expect(errorEnvelope.parse(other.json()).code).toBe('NOT_FOUND');
      const long = await t.app.inject({ method: 'GET', url: `/api/features/${'k'.repeat(300)}` });
      expect(long.statusCode).toBe(400);
    });
  });

  it('gives other modules the same content through services.content, read-only', async () => {
    const content = t.app.ctx.services.content;
    const settings = await content.getSiteSettings();
    expect(settings.globalPasswordRequirementsBlock.minPasswordLength).toBe(12);
    expect(settings.isErrorContext).toBe(false);
    expect((await content.getSiteSettings({ errorContext: true })).isErrorContext).toBe(true);
    expect((await content.getPage('/Register/'))?.type).toBe('RegistrationPage');
    expect(await content.getPage('/nowhere')).toBeUndefined();
    expect((await content.getNavigation()).footer.length).toBeGreaterThan(0);
    expect(await content.getFeatureDefinitions('wrong-key')).toBeUndefined();
    expect(() => {
      (settings as { userCacheTTL: number }).userCacheTTL = 99;
    }).toThrow(TypeError);
  });

  it("writes the site's freephone number wherever content says {phone}, and tel:{phone} as its digits (issue 38)", async () => {
    const stored = await t.db.query<{ body: unknown }>(
      `SELECT body FROM content_item WHERE kind = 'page' AND key = '/contact-us'`,
    );
    expect(JSON.stringify(stored.rows[0]!.body)).toContain('tel:{phone}');
    const served = [
      (await t.app.inject({ method: 'GET', url: pageAt('/contact-us') })).body,
      (await t.app.inject({ method: 'GET', url: navUrl })).body,
      (await t.app.inject({ method: 'GET', url: `${settingsUrl}?type=SiteSettings` })).body,
    ];
    for (const body of served) {
      expect(body).not.toContain('{phone}');
      expect(body).toContain('0800 123 4567');
    }
    expect(served[0]).toContain('href=\\"tel:08001234567\\"');
    expect(served[1]).toContain('"url":"tel:08001234567"');

    // One setting changes every text.
    await t.db.query(
      `UPDATE content_item SET body = jsonb_set(body, '{infinityPhoneTracking}', '"0800 765 4321"') WHERE kind = 'settings'`,
    );
    t.clock.advance(CONTENT_CACHE_MS);
    const changed = (await t.app.inject({ method: 'GET', url: pageAt('/contact-us') })).body;
    expect(changed).toContain('href=\\"tel:08007654321\\">0800 765 4321</a>');
    expect(changed).not.toContain('0800 123 4567');
    await t.app.ctx.services.content.seed();
  });

  it('rereads the store after the cache lifetime, by the clock', async () => {
    const before = await t.app.inject({ method: 'GET', url: pageAt('/help/faqs') });
    expect(before.statusCode).toBe(200);
    await t.db.query(
      `UPDATE content_item SET body = jsonb_set(body, '{heading}', '"Questions and answers"') WHERE kind = 'page' AND key = '/help/faqs'`,
    );
    const cached = await t.app.inject({ method: 'GET', url: pageAt('/help/faqs') });
    expect((cached.json() as PageContent).heading).toBe('Help with your online account');
    t.clock.advance(CONTENT_CACHE_MS);
    const fresh = await t.app.inject({ method: 'GET', url: pageAt('/help/faqs') });
    expect((fresh.json() as PageContent).heading).toBe('Questions and answers');
    expect(fresh.headers.etag).not.toBe(before.headers.etag);

    // Seeding puts the files' content back and is visible at once on this instance.
    expect(await t.app.ctx.services.content.seed()).toMatchObject({ written: 1, removed: 0 });
    const reseeded = await t.app.inject({ method: 'GET', url: pageAt('/help/faqs') });
    expect((reseeded.json() as PageContent).heading).toBe('Help with your online account');
    expect(reseeded.headers.etag).toBe(before.headers.etag);
    expect(await t.app.ctx.services.content.seed()).toMatchObject({ written: 0, removed: 0 });
  });

  it('treats a stored page that no longer matches the contract as missing, not as a 500', async () => {
    await t.db.query(
      `UPDATE content_item SET body = body - 'heading' WHERE kind = 'page' AND key = '/help/cookies'`,
    );
    t.clock.advance(CONTENT_CACHE_MS);
    const res = await t.app.inject({ method: 'GET', url: pageAt('/help/cookies') });
    expect(res.statusCode).toBe(404);
  });
});

describe('content service configuration', () => {
  it('is mounted under the path of CONTENT_BASE_URL and not at the root', async () => {
    const t = await createTestApp({ CONTENT_BASE_URL: 'http://localhost:3000/content-svc' });
    try {
      const mounted = await t.app.inject({ method: 'GET', url: '/content-svc/api/v1/content/getnavigation' });
      expect(mounted.statusCode).toBe(200);
      navigation.parse(mounted.json());
      const root = await t.app.inject({ method: 'GET', url: '/api/v1/content/getnavigation' });
      expect(root.statusCode).toBe(404);
      const settings = await t.app.inject({
        method: 'GET',
        url: '/content-svc/api/v1/content/getbytype?type=SiteSettings',
      });
      expect(settings.statusCode).toBe(200);
      // Media paths in content point at where the service is mounted.
      const page = await t.app.inject({
        method: 'GET',
        url: `/content-svc${pageAt('/contact-us/message-sent')}`,
      });
      const src = (page.json() as { image?: { src: string } }).image?.src;
      expect(src).toBe('/content-svc/api/v1/content/media/success.svg');
      expect((await t.app.inject({ method: 'GET', url: String(src) })).statusCode).toBe(200);
      const features = await t.app.inject({
        method: 'GET',
        url: '/content-svc/api/features/sdk-portal-local',
      });
      expect(features.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('uses an absolute media URL when the content service is on another origin', async () => {
    const t = await createTestApp({ CONTENT_BASE_URL: 'https://content.example.co.uk/cms' });
    try {
      const page = await t.app.inject({ method: 'GET', url: `/cms${pageAt('/register/password-set')}` });
      expect((page.json() as { image?: { src: string } }).image?.src).toBe(
        'https://content.example.co.uk/cms/api/v1/content/media/success.svg',
      );
    } finally {
      await t.close();
    }
  });

  it('hands out the configured feature-flag SDK key', async () => {
    const t = await createTestApp({ FEATURE_FLAG_SDK_KEY: 'sdk-prod-abc123' });
    try {
      const res = await t.app.inject({ method: 'GET', url: `${settingsUrl}?type=SiteSettings` });
      expect((res.json() as Array<{ featureFlagKey: string }>)[0]?.featureFlagKey).toBe('sdk-prod-abc123');
      expect((await t.app.inject({ method: 'GET', url: '/api/features/sdk-prod-abc123' })).statusCode).toBe(
        200,
      );
      expect((await t.app.inject({ method: 'GET', url: '/api/features/sdk-portal-local' })).statusCode).toBe(
        404,
      );
    } finally {
      await t.close();
    }
  });
});
