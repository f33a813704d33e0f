import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageTypes, richTextProblem, type ContentBlockType } from '@portal/contracts/content';
import { createTestApp, databases } from '../../../test/helpers';
import type { Db, Queryable } from '../../platform/db';
import { listContent } from './content.repository';
import {
  ContentFileError,
  defaultContentDir,
  loadContentFiles,
  writeContent,
  type ContentBundle,
} from './content.seed';
import { seedContentIfChanged } from './editorial';

/** The page paths agreed with the other engineers: each must exist with this type. */
const agreedPages: Record<string, string> = {
  '/login': 'LoginPage',
  '/login/verify': 'AuthenticationVerificationPage',
  '/login/verify/challenge': 'AuthenticationChallengePage',
  '/register': 'RegistrationPage',
  '/register/check-your-email': 'ConfirmationPage',
  '/register/activate': 'PasswordPage',
  '/register/password-set': 'FormSuccessPage',
  '/forgotten-password': 'ResetPasswordPage',
  '/forgotten-password/check-your-email': 'FormSuccessPage',
  '/forgotten-password/new-password': 'PasswordPage',
  '/account': 'AccountPage',
  '/account/marketing-preferences': 'RegistrationMarketingPreferences',
  '/account/dashboard': 'DashboardPage',
  '/account/policies': 'PolicyPage',
  '/account/policies/cover': 'PolicyPage',
  '/account/policies/documents': 'PolicyPage',
  '/account/bills-and-payments': 'StandardPageTemplate',
  '/account/messages': 'MessagesPage',
  '/contact-us': 'StandardPageTemplate',
  '/contact-us/message-sent': 'FormSuccessPage',
  '/profile/personal-details': 'StandardPageTemplate',
  '/profile/contact-details': 'StandardPageTemplate',
  '/profile/login-security': 'StandardPageTemplate',
  '/profile/preferences': 'StandardPageTemplate',
  '/policy-redirect': 'PolicyRedirectPage',
  '/make-a-claim': 'RedirectPage',
  '/help/accessibility': 'StandardPageTemplate',
  '/help/cookies': 'StandardPageTemplate',
  '/help/privacy': 'StandardPageTemplate',
  '/help/terms-of-use': 'StandardPageTemplate',
  '/help/faqs': 'StandardPageTemplate',
  '/maintenance': 'MaintenancePage',
  '/error': 'ErrorPage',
};

/** Pages that show customer data must need sign-in. */
const signedInPrefixes = ['/account', '/profile', '/contact-us', '/policy-redirect'];

describe('content files', () => {
  let bundle: ContentBundle;
  beforeAll(async () => {
    bundle = await loadContentFiles();
  });
  const page = (url: string) => bundle.pages.find((p) => p.url === url);

  it('has every agreed page path, with its page type', () => {
    for (const [url, type] of Object.entries(agreedPages)) {
      expect(page(url)?.type, url).toBe(type);
    }
  });

  it('has at least one page of every page type', () => {
    const types = new Set(bundle.pages.map((p) => p.type));
    for (const type of pageTypes) expect(types.has(type), type).toBe(true);
  });

  it('marks every page that shows customer data as needing sign-in, and the public ones as not', () => {
    for (const p of bundle.pages) {
      const signedIn = signedInPrefixes.some((prefix) => p.url === prefix || p.url.startsWith(`${prefix}/`));
      expect(p.requiresAuthentication, p.url).toBe(signedIn);
    }
  });

  it('gives the password pages their mode and the registration page the journey fields', () => {
    const activation = page('/register/activate');
    const recovery = page('/forgotten-password/new-password');
    expect(activation?.type === 'PasswordPage' && activation.mode).toBe('activation');
    expect(recovery?.type === 'PasswordPage' && recovery.mode).toBe('recovery');

    const register = page('/register')!;
    const byName = Object.fromEntries(register.fields.map((f) => [f.name, f]));
    expect(byName.emailAddress).toMatchObject({ type: 'email', autocomplete: 'email', required: true });
    expect(byName.dateOfBirth).toMatchObject({ type: 'dob', maxLength: 10, autocomplete: 'bday' });
    expect(byName.dateOfBirth?.subLabel).toMatch(/For example, 27\/03\/1985/);
    expect(byName.postCode).toMatchObject({ type: 'postcode', maxLength: 50, autocomplete: 'postal-code' });
    expect(byName.policyNumber).toMatchObject({ type: 'policyNumber', minLength: 11, maxLength: 12 });
    expect(byName.policyNumber?.showWhen).toBe('needMoreData');
    expect(byName.termsAccepted?.type).toBe('checkbox');
    expect(register.messages.invalidTokenMessage).toBeTruthy();
    expect(register.messages.incorrectEmailMessage).toBeTruthy();
    expect(register.type === 'RegistrationPage' && register.failureBlocks.length).toBeGreaterThan(0);
  });

  it('uses field patterns that agree with the validation rules of the spec', () => {
    const fields = bundle.pages.flatMap((p) => p.fields);
    const patternOf = (type: string) => new RegExp(fields.find((f) => f.type === type)!.pattern!);
    const policy = patternOf('policyNumber');
    expect(['102X4567891', '507P87654321', '123Q12345678'].every((v) => policy.test(v))).toBe(true);
    expect(['102X456789', '102Q4567891', '12X45678912', '102A4567891'].some((v) => policy.test(v))).toBe(
      false,
    );
    const postcode = patternOf('postcode');
    expect(['HR8 2AB', 'SW1A 1AA', 'YO431DT'].every((v) => postcode.test(v))).toBe(true);
    expect(['HR8-2AB', 'ABCDEF', '123456', 'SW1A 1AAA'].some((v) => postcode.test(v))).toBe(false);
    const dob = patternOf('dob');
    expect(dob.test('27/03/1985')).toBe(true);
    expect(dob.test('1985-03-27')).toBe(false);
    expect(patternOf('mobileCode').test('123456')).toBe(true);
    expect(patternOf('mobileCode').test('12345')).toBe(false);
    expect(patternOf('landlineCode').test('12345')).toBe(true);
    expect(patternOf('landlineCode').test('1234a')).toBe(false);
    const email = patternOf('email');
    expect(email.test('margaret.thompson@example.co.uk')).toBe(true);
    expect(email.test('margaret.thompson@example')).toBe(false);
    for (const f of fields.filter((x) => x.type === 'mobileCode' || x.type === 'landlineCode')) {
      expect(f.autocomplete).toBe('one-time-code');
    }
  });

  it('carries the messages the journeys need', () => {
    expect(page('/login')?.messages.wrongCredentialsMessage).toBeTruthy();
    expect(page('/login/verify/challenge')?.messages.submitErrorMessage).toBeTruthy();
    expect(page('/login/verify/challenge')?.messages.resendText).toBeTruthy();
    expect(page('/login/verify/challenge')?.messages.codeSentText).toBeTruthy();
    const blockTypes = new Set<ContentBlockType>(bundle.pages.flatMap((p) => p.blocks.map((b) => b.type)));
    for (const type of [
      'personalDetails',
      'contactDetails',
      'passwordDetails',
      'policiesGrid',
      'renewalsGrid',
      'marketingPreferences',
      'correspondencePreferences',
      'agencyCard',
      'billingDocuments',
      'policyDocumentPacks',
      'policyCoverInsert',
      'quotes',
      'contactForm',
      'crossSellBanner',
    ] as const) {
      expect(blockTypes.has(type), type).toBe(true);
    }
    const contact = page('/contact-us')?.blocks.find((b) => b.type === 'contactForm');
    expect(contact?.type === 'contactForm' && contact.message.maxLength).toBe(500);
    expect(contact?.type === 'contactForm' && contact.successUrl).toBe('/contact-us/message-sent');
  });

  it('has plain copy: no placeholder text and only the allowed rich-text tags', () => {
    const text = JSON.stringify(bundle);
    expect(text).not.toMatch(/lorem|ipsum|TODO|TBC|placeholder text/i);
    for (const p of bundle.pages) {
      expect(p.intro === undefined || richTextProblem(p.intro) === undefined, p.url).toBe(true);
    }
  });
});

describe('content file validation', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'content-files-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function copyWith(change: (root: string) => Promise<void>): Promise<string> {
    const root = await mkdtemp(path.join(dir, 'c-'));
    await cp(defaultContentDir, root, { recursive: true });
    await change(root);
    return root;
  }
  async function problemsOf(root: string): Promise<string[]> {
    try {
      await loadContentFiles(root);
    } catch (error) {
      if (error instanceof ContentFileError) return error.problems;
      throw error;
    }
    return [];
  }
  async function editJson(file: string, edit: (json: Record<string, unknown>) => void) {
    const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    edit(json);
    await writeFile(file, JSON.stringify(json));
  }

  it('names the file and field of a page that breaks the contract', async () => {
    const root = await copyWith((r) =>
      editJson(path.join(r, 'pages', 'login.json'), (j) => {
        delete j.meta;
      }),
    );
    expect(await problemsOf(root)).toEqual([expect.stringMatching(/^pages\/login\.json: meta/)]);
  });

  it('refuses unsafe rich text and links', async () => {
    const root = await copyWith(async (r) => {
      await editJson(path.join(r, 'pages', 'error.json'), (j) => {
        j.intro = '<p>Hello</p><script>alert(1)</script>';
      });
      await editJson(path.join(r, 'pages', 'maintenance.json'), (j) => {
        j.intro = '<p><a href="javascript:alert(1)">x</a></p>';
      });
      await editJson(path.join(r, 'pages', 'help-faqs.json'), (j) => {
        j.intro = '<p onclick="alert(1)">x</p>';
      });
    });
    const problems = (await problemsOf(root)).join('\n');
    expect(problems).toMatch(/error\.json: intro: Rich text: tag <script>/);
    expect(problems).toMatch(/maintenance\.json: intro: Rich text: link javascript/);
    expect(problems).toMatch(/help-faqs\.json: intro: Rich text: attribute onclick/);
  });

  it('refuses duplicate URLs, links to missing pages and experiments without a matching flag', async () => {
    const root = await copyWith(async (r) => {
      await editJson(path.join(r, 'pages', 'help-cookies.json'), (j) => {
        j.url = '/help/privacy';
      });
      await editJson(path.join(r, 'navigation.json'), (j) => {
        (j.footer as Array<Record<string, unknown>>)[1]!.url = '/no-such-page';
      });
      await editJson(path.join(r, 'feature-flags.json'), (j) => {
        (j.features as Record<string, unknown>)['login-intro-variant'] = { defaultValue: 'control' };
      });
    });
    const problems = (await problemsOf(root)).join('\n');
    expect(problems).toMatch(/url \/help\/privacy is also used/);
    // Only reported once the files themselves are valid: fix the duplicate and look again.
    await editJson(path.join(root, 'pages', 'help-cookies.json'), (j) => {
      j.url = '/help/cookies';
    });
    const second = (await problemsOf(root)).join('\n');
    expect(second).toMatch(/navigation\.json: links to \/no-such-page, which has no page/);
    expect(second).toMatch(/experiment login-intro-variant variants control, reassurance do not match/);
  });

  it('refuses a modal file that is not one of the five modal windows', async () => {
    const root = await copyWith((r) => writeFile(path.join(r, 'modals', 'surprise.json'), '{}'));
    expect((await problemsOf(root)).join('\n')).toMatch(
      /modals\/surprise\.json: not one of the modal windows/,
    );
  });

  it('refuses a page file that is not JSON', async () => {
    const root = await copyWith((r) => writeFile(path.join(r, 'pages', 'broken.json'), '{ "type": '));
    expect((await problemsOf(root)).join('\n')).toMatch(/broken\.json: /);
  });

  it('loads a copy with a page removed (so the seed can remove it from the store)', async () => {
    const root = await copyWith((r) => unlink(path.join(r, 'pages', 'help-cookies.json')));
    // The footer and the help page link to it, so removing the file alone is refused...
    expect((await problemsOf(root)).join('\n')).toMatch(/links to \/help\/cookies/);
    await editJson(path.join(root, 'navigation.json'), (j) => {
      j.footer = (j.footer as Array<{ url: string }>).filter((i) => i.url !== '/help/cookies');
    });
    await editJson(path.join(root, 'pages', 'help.json'), (j) => {
      for (const block of j.blocks as Array<{ html?: string }>) {
        block.html = block.html?.replace(/<li><a href="\/help\/cookies">Cookies<\/a><\/li>/, '');
      }
    });
    // ...and accepted once nothing links to it any more.
    const loaded = await loadContentFiles(root);
    expect(loaded.pages.some((p) => p.url === '/help/cookies')).toBe(false);
  });
});

class Rollback extends Error {}

/** Runs fn in a transaction that is always rolled back, so runs on a shared PostgreSQL leave no trace. */
async function rolledBack(db: Db, fn: (tx: Queryable) => Promise<void>) {
  await db
    .transaction(async (tx) => {
      await fn(tx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
}

describe.each(databases())('content seed on $name', ({ open }) => {
  let db: Db;
  let bundle: ContentBundle;
  beforeAll(async () => {
    db = await open();
    bundle = await loadContentFiles();
  });
  afterAll(() => db.close());

  const snapshot = async (tx: Queryable) =>
    (await listContent(tx)).map((r) => ({
      kind: r.kind,
      key: r.key,
      hash: r.contentHash,
      at: r.updatedAt.toISOString(),
    }));

  it('is idempotent: seeding the same files again writes nothing and leaves the same rows', async () => {
    await rolledBack(db, async (tx) => {
      await writeContent(tx, bundle, new Date('2026-11-21T10:00:00Z'));
      const first = await snapshot(tx);
      const again = await writeContent(tx, bundle, new Date('2026-11-22T10:00:00Z'));
      expect(again).toEqual({ pages: bundle.pages.length, written: 0, removed: 0 });
      expect(await snapshot(tx)).toEqual(first);
      expect(first.filter((r) => r.kind === 'page')).toHaveLength(bundle.pages.length);
      expect(
        first
          .filter((r) => r.kind !== 'page')
          .map((r) => r.kind)
          .sort(),
      ).toEqual(['feature_flags', 'navigation', 'settings']);
    });
  });

  it('rewrites a changed page and removes a page whose file was deleted', async () => {
    await rolledBack(db, async (tx) => {
      await writeContent(tx, bundle, new Date('2026-11-21T10:00:00Z'));
      const changed: ContentBundle = {
        ...bundle,
        pages: bundle.pages
          .filter((p) => p.url !== '/help/cookies')
          .map((p) => (p.url === '/help/faqs' ? { ...p, heading: 'Questions and answers' } : p)),
      };
      const result = await writeContent(tx, changed, new Date('2026-11-22T10:00:00Z'));
      expect(result).toEqual({ pages: bundle.pages.length - 1, written: 1, removed: 1 });
      const rows = await listContent(tx);
      expect(rows.some((r) => r.key === '/help/cookies')).toBe(false);
      const faqs = rows.find((r) => r.key === '/help/faqs');
      expect((faqs?.body as { heading: string }).heading).toBe('Questions and answers');
      expect(faqs?.updatedAt.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    });
  });
});

describe('the start-up content seed', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'content-start-'));
    await cp(defaultContentDir, dir, { recursive: true });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('skips unchanged files and loads them again when one changes', async () => {
    const t = await createTestApp();
    try {
      const ctx = t.app.ctx;
      // The template was seeded from the same files by the full seed, which records their fingerprint.
      expect(await seedContentIfChanged(ctx, dir)).toBe('unchanged');

      const file = path.join(dir, 'pages', 'help-accessibility.json');
      const page = JSON.parse(await readFile(file, 'utf8')) as { heading: string };
      await writeFile(file, JSON.stringify({ ...page, heading: 'Accessibility of our portal' }));
      expect(await seedContentIfChanged(ctx, dir)).toMatchObject({ written: 1, removed: 0 });
      expect(await seedContentIfChanged(ctx, dir)).toBe('unchanged');
      const rows = await listContent(t.db);
      expect(rows.find((r) => r.key === '/help/accessibility')?.body).toMatchObject({
        heading: 'Accessibility of our portal',
      });
    } finally {
      await t.close();
    }
  });
});
