import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageInitSettings } from '@portal/contracts/page-init';
import { createTestApp, type TestContext } from '../../test/helpers';
import { loadConfig } from '../config';
import { apiPathMatcher, inlineScripts } from './spa';

/** A tiny stand-in for Vite's output: index.html, a hashed script and stylesheet, a public file. */
async function fakeDist(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-spa-test-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html>
<html lang="en-GB">
  <head>
    <meta charset="utf-8" />
    <title>Portal</title>
    <script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-Ef56Gh78.css">
  </head>
  <body><div id="root"></div></body>
</html>
`,
  );
  const script = `console.log(${JSON.stringify('portal '.repeat(400))});\n`;
  await writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js'), script);
  // A precompressed copy, as scripts/precompress.mjs writes it; marked so the test can tell it was used.
  await writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(`${script}// precompressed\n`));
  await writeFile(path.join(dir, 'assets', 'index-Ef56Gh78.css'), 'body { margin: 0 }\n');
  // The staff console's build (decision 038): its own HTML and files, beside the customers'.
  await writeFile(
    path.join(dir, 'staff.html'),
    `<!doctype html>
<html lang="en-GB">
  <head>
    <meta charset="utf-8" />
    <title>Staff console – Meridian Mutual</title>
    <script type="module" crossorigin src="/assets/staff-staff-Jj00Kk11.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/staff-staff-Ll22Mm33.css">
  </head>
  <body><div id="root"></div></body>
</html>
`,
  );
  await writeFile(path.join(dir, 'assets', 'staff-staff-Jj00Kk11.js'), 'console.log("console");\n');
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n');
  // What scripts/page-chunks.mjs writes: each page type's own files (one name is not a plain asset path).
  await mkdir(path.join(dir, '.vite'));
  await writeFile(
    path.join(dir, '.vite', 'page-chunks.json'),
    JSON.stringify({
      LoginPage: {
        js: ['assets/login-page-Aa11Bb22.js', 'assets/use-form-Cc33Dd44.js', '"><script>x</script>'],
        css: ['assets/login-page-Ee55Ff66.css'],
      },
      '@experiments': { js: ['assets/esm-Gg77Hh88.js'], css: [] },
      '@startup': { js: ['assets/content-calls-Hh88Ii99.js'], css: [] },
    }),
  );
  return dir;
}

function settingsFromHtml(html: string): unknown {
  const match = /<meta name="portal-settings" content="([^"]*)">/.exec(html);
  expect(match, 'the portal-settings meta tag').not.toBeNull();
  const decoded = match![1]!
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return JSON.parse(decoded);
}

function publicContentFromHtml(html: string): unknown {
  const match = /<script type="application\/json" id="portal-content">([\s\S]*?)<\/script>/.exec(html);
  expect(match, 'the portal-content data block').not.toBeNull();
  return JSON.parse(match![1]!);
}

const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the built SPA', () => {
  let dist: string;
  let t: TestContext;
  beforeAll(async () => {
    dist = await fakeDist();
    t = await createTestApp({
      WEB_DIST_DIR: dist,
      PUBLIC_URL: 'https://portal.example.co.uk',
      CONTENT_BASE_URL: 'https://portal.example.co.uk/content-svc',
      // A value that needs escaping inside an HTML attribute.
      FEATURE_FLAG_SDK_KEY: `sdk-"quoted"&<tag>'`,
    });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it("names a page's own code in its HTML, so it downloads with the app", async () => {
    const login = await t.app.inject({ method: 'GET', url: '/login', headers: browser });
    expect(login.statusCode).toBe(200);
    expect(login.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/login-page-Aa11Bb22.js">',
    );
    expect(login.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/use-form-Cc33Dd44.js">',
    );
    expect(login.body).toContain(
      '<link rel="preload" as="style" crossorigin href="/assets/login-page-Ee55Ff66.css">',
    );
    // The sign-in page runs a content experiment: the feature-flag SDK comes along.
    expect(login.body).toContain('<link rel="modulepreload" crossorigin href="/assets/esm-Gg77Hh88.js">');
    // The SPA renders this page itself (no render module in this build), from the public content the
    // answer carries: it makes no content call at its start, so the calls' code is not named (issue 27).
    expect(login.body).toContain('id="portal-content"');
    expect(login.body).not.toContain('content-calls-Hh88Ii99.js');
    expect(login.body).not.toContain('<script>x</script>');
    expect(inlineScripts(login.body)).toEqual([]);
    // A page type without a list, and an app route with no content page, get no page code of their own.
    const help = await t.app.inject({ method: 'GET', url: '/help', headers: browser });
    const unknown = await t.app.inject({ method: 'GET', url: '/login/callback', headers: browser });
    for (const res of [help, unknown]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('modulepreload" crossorigin href="/assets/login-page');
      expect(res.body).not.toContain('esm-Gg77Hh88');
    }
    // The help page comes with its content; the route without a content page is the plain index.html,
    // which names the content calls' code: the SPA fetches its content when it starts.
    expect(help.body).not.toContain('content-calls-Hh88Ii99.js');
    expect(unknown.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/content-calls-Hh88Ii99.js">',
    );
    expect(login.headers['etag']).not.toBe(help.headers['etag']);
    const again = await t.app.inject({
      method: 'GET',
      url: '/login',
      headers: { ...browser, 'if-none-match': String(login.headers['etag']) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('serves index.html at / with the page-init settings in a meta tag, not in a script', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: browser });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(inlineScripts(res.body)).toEqual([]);
    const settings = pageInitSettings.parse(settingsFromHtml(res.body));
    expect(settings).toMatchObject({
      environment: 'test',
      portalBaseUrl: 'https://portal.example.co.uk',
      contentBaseUrl: 'https://portal.example.co.uk/content-svc',
      accountBaseUrl: 'https://portal.example.co.uk',
      identity: {
        orgUrl: 'https://portal.example.co.uk',
        issuer: 'https://portal.example.co.uk/oauth2/default',
        clientId: 'portal-spa',
        redirectUri: 'https://portal.example.co.uk/login/callback',
        postLogoutRedirectUri: 'https://portal.example.co.uk/login',
        scopes: ['openid', 'portal.customer'],
        mfaVerifyUrl: 'https://portal.example.co.uk/api/v1/authn/factors/{factorId}/verify',
        otpVerifyUrl: 'https://portal.example.co.uk/api/v1/authn/factors/{factorId}/verify',
      },
      featureFlags: { sdkKey: `sdk-"quoted"&<tag>'`, apiHost: 'https://portal.example.co.uk/content-svc' },
    });
    // The raw attribute never contains a character that could end it or open a tag.
    const raw = /<meta name="portal-settings" content="([^"]*)">/.exec(res.body)![1]!;
    expect(raw).not.toMatch(/[<>"']/);
  });

  it('answers deep links with index.html so a reload works', async () => {
    for (const url of [
      '/login',
      '/account/dashboard',
      '/account/policies/?id=102X4567891',
      '/help/accessibility',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: browser });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root">');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/account/dashboard', headers: browser });
    expect(head.statusCode).toBe(200);
  });

  it('gives the same settings at /app-settings.json', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/login', headers: browser });
    const res = await t.app.inject({ method: 'GET', url: '/app-settings.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toEqual(settingsFromHtml(page.body));
  });

  it('revalidates index.html with its ETag (the same for addresses that get the same answer)', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/help', headers: browser });
    const etag = first.headers['etag'];
    expect(etag).toBeTruthy();
    const again = await t.app.inject({
      method: 'GET',
      url: '/help',
      headers: { ...browser, 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    // The app's routes without content share the plain page.
    const missing = await t.app.inject({ method: 'GET', url: '/', headers: browser });
    const other = await t.app.inject({
      method: 'GET',
      url: '/login/callback',
      headers: { ...browser, 'if-none-match': String(missing.headers['etag']) },
    });
    expect(other.statusCode).toBe(304);
  });

  it("carries a page's public content (settings, navigation, the page) for the SPA's first render", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/account/dashboard', headers: browser });
    expect(res.statusCode).toBe(200);
    const content = publicContentFromHtml(res.body);
    // Exactly what the content service answers anyone, so no content call is needed at start.
    const [settings, navigation, page] = await Promise.all(
      [
        '/content-svc/api/v1/content/getbytype?type=SiteSettings',
        '/content-svc/api/v1/content/getnavigation',
        '/content-svc/api/v1/content/getByRelativeUrl?relativeUrl=%2Faccount%2Fdashboard',
      ].map(async (url) => (await t.app.inject({ method: 'GET', url })).json()),
    );
    expect(content).toEqual({ path: '/account/dashboard', settings: settings[0], navigation, page });
    expect(inlineScripts(res.body)).toEqual([]);
    // The block is a JSON data block nothing can close early.
    const raw = /<script type="application\/json" id="portal-content">([\s\S]*?)<\/script>/.exec(
      res.body,
    )![1]!;
    expect(raw).not.toMatch(/[<>]/);
    // The answer is the same for everyone (public content only): cacheable, revalidated by its ETag.
    expect(res.headers['cache-control']).toBe('no-cache');
    const again = await t.app.inject({
      method: 'GET',
      url: '/account/dashboard',
      headers: { ...browser, cookie: 'sid=someone', 'if-none-match': String(res.headers['etag']) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('leaves the content out with a query string, and where there is no page', async () => {
    for (const url of [
      '/account/dashboard?error=true',
      '/account/policies/?id=102X4567891',
      '/login/callback',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: browser });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('id="portal-content"');
    }
  });

  it('answers an address that is no page 404 (the SPA page, without a render module), never 304', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/no-such-page', headers: browser });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('name="portal-settings"');
    expect(res.body).not.toContain('id="portal-content"');
    const again = await t.app.inject({
      method: 'GET',
      url: '/no-such-page',
      headers: { ...browser, 'if-none-match': String(res.headers['etag'] ?? '"x"') },
    });
    expect(again.statusCode).toBe(404);
  });

  it('caches hashed assets for a year and other files only with revalidation', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-type']).toMatch(/javascript/);
    const css = await t.app.inject({ method: 'GET', url: '/assets/index-Ef56Gh78.css' });
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('sends assets compressed: the precompressed copy when there is one, else on the fly', async () => {
    const gz = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // inject() does not decompress; the body is the .gz file we wrote.
    const { gunzipSync } = await import('node:zlib');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('// precompressed');

    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(2800);
  });

  it('never serves index.html raw or the compressed copies as files', async () => {
    const raw = await t.app.inject({ method: 'GET', url: '/index.html', headers: browser });
    expect(raw.statusCode).toBe(200);
    expect(raw.body).toContain('name="portal-settings"');
    const copy = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js.gz' });
    expect(copy.statusCode).toBe(404);
  });

  it('answers a JSON 404 for service paths, missing files and non-browser callers', async () => {
    const cases: Array<{ url: string; method?: 'GET' | 'POST'; headers?: Record<string, string> }> = [
      { url: '/api/v1/nothing-here', headers: browser },
      { url: '/content-svc/api/v1/nothing-here', headers: browser },
      { url: '/assets/missing-0000.js', headers: browser },
      { url: '/account/dashboard', headers: { accept: 'application/json' } },
      { url: '/account/dashboard', method: 'POST', headers: browser },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: c.method ?? 'GET', url: c.url, headers: c.headers ?? {} });
      expect(res.statusCode, c.url).toBe(404);
      expect(res.headers['content-type'], c.url).toMatch(/^application\/json/);
      expect(res.json(), c.url).toMatchObject({ code: 'NOT_FOUND', correlationId: expect.any(String) });
      // A missing hashed file must not be cached as if it were one.
      expect(res.headers['cache-control'], c.url).not.toMatch(/immutable/);
    }
  });

  it("serves the staff console's own HTML at /staff/ and every console page, with the same headers", async () => {
    for (const url of ['/staff/', '/staff', '/staff/customers/C1000001', '/staff/signed-out?x=1']) {
      const res = await t.app.inject({ method: 'GET', url, headers: browser });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toContain('src="/assets/staff-staff-Jj00Kk11.js"');
      // Not the customers' SPA: no page init, no customer code.
      expect(res.body, url).not.toContain('portal-settings');
      expect(res.body, url).not.toContain('index-Ab12Cd34.js');
      expect(inlineScripts(res.body), url).toEqual([]);
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const first = await t.app.inject({ method: 'GET', url: '/staff/', headers: browser });
    const again = await t.app.inject({
      method: 'GET',
      url: '/staff/',
      headers: { ...browser, 'if-none-match': String(first.headers['etag']) },
    });
    expect(again.statusCode).toBe(304);
    // Its files are long-cached with the customers'.
    const script = await t.app.inject({ method: 'GET', url: '/assets/staff-staff-Jj00Kk11.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("never answers the console's calls, files or other methods with a page, nor staff.html raw", async () => {
    const cases: Array<{ url: string; method?: 'GET' | 'POST'; headers?: Record<string, string> }> = [
      { url: '/staff/api/nothing-here', headers: browser },
      { url: '/staff/api', headers: browser },
      { url: '/staff/missing-0000.js', headers: browser },
      { url: '/staff/customers/C1000001', headers: { accept: 'application/json' } },
      { url: '/staff/customers/C1000001', method: 'POST', headers: browser },
      { url: '/staff.html', headers: browser },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: c.method ?? 'GET', url: c.url, headers: c.headers ?? {} });
      expect(res.statusCode, c.url).toBe(404);
      expect(res.headers['content-type'], c.url).toMatch(/^application\/json/);
    }
  });

  it("never names the console's files in a customer page", async () => {
    for (const url of ['/', '/login', '/login/callback', '/account/dashboard', '/no-such-page']) {
      const res = await t.app.inject({ method: 'GET', url, headers: browser });
      expect(res.body, url).toContain('index-Ab12Cd34.js');
      expect(res.body, url).not.toMatch(/staff-|staff\.html/);
    }
  });

  it('picks up a rebuilt index.html without a restart', async () => {
    const file = path.join(dist, 'index.html');
    await writeFile(
      file,
      '<!doctype html><html><head><title>Rebuilt</title></head><body><div id="root"></div></body></html>',
    );
    const later = new Date(Date.now() + 5000);
    await utimes(file, later, later);
    const res = await t.app.inject({ method: 'GET', url: '/login', headers: browser });
    expect(res.body).toContain('<title>Rebuilt</title>');
    expect(res.body).toContain('name="portal-settings"');
  });
});

describe('before the SPA is built', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST_DIR: path.join(os.tmpdir(), 'portal-no-such-dist') });
  });
  afterAll(() => t.close());

  it('says what to do with a 503 for pages, and still serves the services', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/login', headers: browser });
    expect(page.statusCode).toBe(503);
    expect(page.json()).toMatchObject({ code: 'WEB_APP_NOT_BUILT' });
    expect(page.json().message).toContain('npm run build');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(asset.statusCode).toBe(503);
    const api = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(api.statusCode).toBe(404);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    const settings = await t.app.inject({ method: 'GET', url: '/app-settings.json' });
    expect(settings.statusCode).toBe(200);
    const console = await t.app.inject({ method: 'GET', url: '/staff/', headers: browser });
    expect(console.statusCode).toBe(503);
    expect(console.json()).toMatchObject({ code: 'STAFF_CONSOLE_NOT_BUILT' });
  });
});

describe('an instance without the staff console', () => {
  let dist: string;
  let t: TestContext;
  beforeAll(async () => {
    dist = await fakeDist();
    // The staff module is not on this instance: /staff/ is nobody's page, not the customers' SPA.
    t = await createTestApp({ WEB_DIST_DIR: dist, MODULES: 'content' });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('answers /staff/ not found', async () => {
    for (const url of ['/staff/', '/staff/customers/C1000001']) {
      const res = await t.app.inject({ method: 'GET', url, headers: browser });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('staff-staff-Jj00Kk11.js');
      expect(res.body, url).not.toContain('index-Ab12Cd34.js');
    }
  });
});

describe('inlineScripts', () => {
  it('finds script elements without a src', () => {
    expect(inlineScripts('<script type="module" src="/a.js"></script><script>alert(1)</script>')).toEqual([
      '<script>',
    ]);
    expect(inlineScripts('<SCRIPT type="text/javascript">x</SCRIPT>')).toHaveLength(1);
    expect(inlineScripts('<script src=/a.js></script>')).toEqual([]);
  });
});

describe('apiPathMatcher', () => {
  it('knows the service paths at the site root and under each module prefix', () => {
    const isApi = apiPathMatcher(
      loadConfig({ NODE_ENV: 'test', REGISTRATION_BASE_URL: 'http://localhost:3000/reg' }),
    );
    for (const p of [
      '/api/v1/authn',
      '/api',
      '/oauth2/default/.well-known/openid-configuration',
      '/Registration',
      '/Registration/resetPassword',
      '/dev/outbox',
      '/healthz',
      '/readyz',
      '/reg/api/v1/registration/complete',
      '/reg/Registration',
      '/staff/api/session',
    ]) {
      expect(isApi(p), p).toBe(true);
    }
    for (const p of [
      '/',
      '/login',
      '/login/callback',
      '/registration',
      '/reg',
      '/reg/start',
      '/healthzone',
      '/apis',
      '/staff/',
      '/staff/customers/C1000001',
    ]) {
      expect(isApi(p), p).toBe(false);
    }
  });
});
