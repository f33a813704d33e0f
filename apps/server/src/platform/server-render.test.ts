import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { experimentIdFrom } from './server-render';
import { inlineScripts } from './spa';

/*
 * The server's part of rendering public pages (decision 016): which requests are rendered, what goes into
 * the page, the CSP, the experiment cookie, and falling back to the SPA's own page. The rendering itself
 * is the web build's module; here a stand-in with the same export renders what it was given, so these
 * tests run without a web build (the browser journeys run the real one).
 */

const css = 'body { margin: 0 }\n.page { color: #111 }\n';
const loginCss = '.login { padding: 1rem }\n';

const renderModule = `
let calls = 0;
export async function renderPage(input) {
  calls += 1;
  const { page, flags, viewed, settings, url } = input;
  if (page === null) {
    return {
      html: '<main><h1>Page not found</h1><p id="path">' + new URL(url).pathname.replace(/</g, '&lt;') + '</p><p id="render-count">' + calls + '</p></main>',
      hydration: { loaderData: { content: { kind: 'notFound' } }, flags, viewed },
      title: 'Page not found',
    };
  }
  if (page.heading === 'boom') throw new Error('render failed');
  const search = new URL(url).search;
  return {
    html: '<main><h1>' + page.heading + '</h1><p id="render-count">' + calls + '</p><p id="search">' + search.replace(/</g, '&lt;') + '</p><p id="flags">' + JSON.stringify(flags) + '</p><p id="phone">' + settings.infinityPhoneTracking + '</p></main>',
    hydration: { loaderData: { content: { kind: 'page', page: { heading: page.heading, note: '</script><script>alert(1)</script>' } } }, flags, viewed },
    title: 'Rendered: ' + page.heading + ' & more',
  };
}
`;

async function fakeDist(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-ssr-test-'));
  await mkdir(path.join(dir, 'assets'));
  await mkdir(path.join(dir, '.ssr'));
  await mkdir(path.join(dir, '.vite'));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html>
<html lang="en-GB">
  <head>
    <meta charset="utf-8" />
    <title>Meridian Mutual – your account</title>
    <script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-Ef56Gh78.css">
  </head>
  <body>
    <noscript><h1>Please turn on JavaScript</h1></noscript>
    <div id="root">
      <div class="page-loader page-loader--visible"><p>Thank you for being patient.</p></div>
      <!--/root-outlet-->
    </div>
  </body>
</html>
`,
  );
  await writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js'), 'console.log("app");\n');
  await writeFile(path.join(dir, 'assets', 'index-Ef56Gh78.css'), css);
  await writeFile(path.join(dir, 'assets', 'login-page-Ee55Ff66.css'), loginCss);
  await writeFile(
    path.join(dir, '.vite', 'page-chunks.json'),
    JSON.stringify({
      LoginPage: { js: ['assets/login-page-Aa11Bb22.js'], css: ['assets/login-page-Ee55Ff66.css'] },
    }),
  );
  await writeFile(path.join(dir, '.ssr', 'entry-server.js'), renderModule);
  return dir;
}

const browser = { accept: 'text/html,application/xhtml+xml' };
const between = (html: string, start: string, end: string) => {
  const from = html.indexOf(start);
  return from === -1 ? undefined : html.slice(from + start.length, html.indexOf(end, from));
};

describe('server-rendered public pages', () => {
  let dist: string;
  let t: TestContext;
  beforeAll(async () => {
    dist = await fakeDist();
    t = await createTestApp({ WEB_DIST_DIR: dist, PUBLIC_URL: 'https://portal.example.co.uk' });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...browser, ...headers } });

  it('sends a public page rendered, with its title, its hydration data and the loader gone', async () => {
    const res = await get('/help');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(between(res.body, '<div id="root">', '</div>\n')).toContain('<h1>Help</h1>');
    expect(res.body).not.toContain('Thank you for being patient');
    expect(res.body).toContain('<title>Rendered: Help &amp; more</title>');
    // From the content service: the settings' phone number.
    expect(res.body).toMatch(/<p id="phone">[0-9 ]+<\/p>/);
    const data = between(res.body, '<script type="application/json" id="portal-hydration">', '</script>');
    expect(data).toBeDefined();
    // Nothing in the data can end its element early.
    expect(data).not.toMatch(/<\/script/i);
    expect(JSON.parse(data!)).toMatchObject({
      loaderData: { content: { kind: 'page', page: { heading: 'Help' } } },
      flags: {},
    });
  });

  it('puts the styles inline, allowed by their hash in the CSP, and no stylesheet request before the paint', async () => {
    const res = await get('/login');
    expect(res.body).not.toContain('href="/assets/index-Ef56Gh78.css"');
    const style = between(res.body, '<style>', '</style>');
    expect(style).toContain(css.trim());
    expect(style).toContain(loginCss.trim());
    const hash = createHash('sha256').update(style!).digest('base64');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(new RegExp(`style-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`));
    // The one inline script is the submit guard, allowed by its own hash (decision 031).
    const scripts = inlineScripts(res.body);
    expect(scripts).toHaveLength(1);
    const guard = between(res.body, scripts[0]!, '</script>');
    const guardHash = createHash('sha256').update(guard!).digest('base64');
    expect(csp).toContain(`script-src 'self' 'sha256-${guardHash}';`);
    // The page's own code is still named for the browser to fetch with the app.
    expect(res.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/login-page-Aa11Bb22.js">',
    );
  });

  it('gives a first visitor of a page with an experiment an id, and renders the variant that id gets', async () => {
    const first = await get('/login');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(
      /^experimentUserId=[0-9a-f-]{36}; Path=\/; Max-Age=31536000; SameSite=Lax; Secure$/,
    );
    const id = experimentIdFrom(cookie.split(';')[0]);
    expect(id).toBeDefined();
    const flags = JSON.parse(between(first.body, '<p id="flags">', '</p>')!) as Record<string, string>;
    expect(['control', 'reassurance']).toContain(flags['login-intro-variant']);
    // What the flag SDK's tracking reports, for the page to send to analytics without the SDK.
    const hydration = JSON.parse(
      between(first.body, '<script type="application/json" id="portal-hydration">', '</script>')!,
    ) as { viewed: unknown };
    expect(hydration.viewed).toEqual([
      { experimentId: 'login-intro-variant', variationId: flags['login-intro-variant'] },
    ]);

    // The same visitor again: no new id, the same variant.
    const again = await get('/login', { cookie: `experimentUserId=${id}` });
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(between(again.body, '<p id="flags">', '</p>')).toBe(JSON.stringify(flags));

    // Across many visitors both variants are shown, each to about half (the content's 50/50 weights).
    const seen = { control: 0, reassurance: 0 };
    for (let i = 0; i < 60; i += 1) {
      const res = await get('/login', { cookie: `experimentUserId=${crypto.randomUUID()}` });
      const variant = (JSON.parse(between(res.body, '<p id="flags">', '</p>')!) as Record<string, string>)[
        'login-intro-variant'
      ] as keyof typeof seen;
      seen[variant] += 1;
    }
    expect(seen.control).toBeGreaterThan(10);
    expect(seen.reassurance).toBeGreaterThan(10);
  });

  it('refuses an experiment cookie that is not an id it could have made', async () => {
    const res = await get('/login', { cookie: 'experimentUserId=<script>' });
    expect(String(res.headers['set-cookie'])).toMatch(/^experimentUserId=[0-9a-f-]{36};/);
    expect(res.body).not.toContain('<script>"');
  });

  it('renders a page once per content and variant, and a page with a query string for its request', async () => {
    const count = async (url: string) =>
      Number(between((await get(url)).body, '<p id="render-count">', '</p>'));
    const first = await count('/help/faqs');
    expect(await count('/help/faqs')).toBe(first);
    const withQuery = await get('/help/faqs?from=<b>email</b>');
    expect(between(withQuery.body, '<p id="search">', '</p>')).toBe('?from=%3Cb%3Eemail%3C/b%3E');
    expect(Number(between(withQuery.body, '<p id="render-count">', '</p>'))).toBeGreaterThan(first);
  });

  it('answers an address that is no page 404, with the not-found page rendered and no "turn on JavaScript"', async () => {
    for (const url of [
      '/no-such-page',
      '/account/dashbord',
      '/help/faqs/extra',
      '/login/callback/x?code=1',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(between(res.body, '<div id="root">', '</div>\n'), url).toContain('<h1>Page not found</h1>');
      expect(res.body, url).not.toContain('turn on JavaScript');
      expect(res.body, url).not.toContain('Thank you for being patient');
      expect(res.body, url).toContain('<title>Page not found</title>');
      // The inline styles are allowed by their hash, as a rendered page's are.
      expect(res.headers['content-security-policy'], url).toMatch(/style-src [^;]*'sha256-/);
      const data = between(res.body, '<script type="application/json" id="portal-hydration">', '</script>');
      expect(JSON.parse(data!), url).toMatchObject({ loaderData: { content: { kind: 'notFound' } } });
    }
  });

  it('renders the not-found page once for every address that has none (issue 38), with no validator', async () => {
    const counts = new Set<string | undefined>();
    for (const url of ['/made-up-1', '/made-up-2?x=<y>', '/help/faqs/a/b/c']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['etag'], url).toBeUndefined();
      // Rendered at an address of its own: no requested address is written into it.
      expect(res.body, url).not.toContain('made-up');
      const count = between(res.body, '<p id="render-count">', '</p>');
      expect(count, url).toMatch(/^\d+$/);
      counts.add(count);
    }
    expect(counts.size).toBe(1);
  });

  it("knows content's pages (signed-in ones with any query too) and the app's own routes: no 404 for them", async () => {
    for (const url of [
      '/',
      '/login/callback?code=abc&state=xyz',
      '/account/dashboard',
      '/account/policies?id=NFM12345678',
      '/account/policies/cover/?id=NFM12345678',
      '/ACCOUNT/Bills-and-Payments',
      '/help/',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('<h1>Page not found</h1>');
    }
  });

  it("leaves signed-in pages and the sign-in steps that need the tab's state to the browser", async () => {
    for (const url of ['/account/dashboard', '/login/verify', '/login/verify/challenge']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('Thank you for being patient');
      expect(res.body, url).not.toContain('portal-hydration');
      expect(res.headers['set-cookie'], url).toBeUndefined();
    }
  });
});

describe('server rendering that fails', () => {
  it('sends the SPA page when the render module throws or is missing, and logs the failure', async () => {
    const dist = await fakeDist();
    await writeFile(
      path.join(dist, '.ssr', 'entry-server.js'),
      'export async function renderPage() { throw new Error("render failed"); }\n',
    );
    const lines: string[] = [];
    const t = await createTestApp(
      { WEB_DIST_DIR: dist },
      {
        logger: () => ({
          level: 'error',
          stream: { write: (line: string) => lines.push(line) },
        }),
      },
    );
    try {
      const res = await t.app.inject({ method: 'GET', url: '/help', headers: browser });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Thank you for being patient');
      expect(res.body).not.toContain('portal-hydration');
      expect(lines.join('\n')).toContain('Server rendering failed');

      await rm(path.join(dist, '.ssr'), { recursive: true, force: true });
      const without = await t.app.inject({ method: 'GET', url: '/register', headers: browser });
      expect(without.statusCode).toBe(200);
      expect(without.body).toContain('Thank you for being patient');
    } finally {
      await t.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});
