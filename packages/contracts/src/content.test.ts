import { describe, expect, it } from 'vitest';
import {
  callToAction,
  contentBlock,
  formField,
  getPageQuery,
  getSiteSettingsQuery,
  navigation,
  normaliseContentPath,
  pageContent,
  richText,
  richTextProblem,
  safeLink,
} from './content';

describe('formField', () => {
  it('applies the spec defaults: label "Label", error text "Error", not required, not disabled', () => {
    const field = formField.parse({ id: 'f1', name: 'email', type: 'email' });
    expect(field).toMatchObject({ label: 'Label', errorMessage: 'Error', required: false, disabled: false });
  });

  it('knows every field type the SPA builds, and nothing else', () => {
    for (const type of [
      'dob',
      'password',
      'newPassword',
      'email',
      'postcode',
      'checkbox',
      'radio',
      'policyNumber',
      'mobileCode',
      'landlineCode',
      'text',
      'textarea',
      'select',
    ]) {
      expect(formField.safeParse({ id: 'f', name: 'n', type }).success, type).toBe(true);
    }
    expect(formField.safeParse({ id: 'f', name: 'n', type: 'colour' }).success).toBe(false);
  });

  it('refuses a pattern that is not a regular expression and lengths that contradict', () => {
    expect(formField.safeParse({ id: 'f', name: 'n', type: 'text', pattern: '([a-z' }).success).toBe(false);
    expect(
      formField.safeParse({ id: 'f', name: 'n', type: 'text', minLength: 12, maxLength: 11 }).success,
    ).toBe(false);
  });
});

describe('callToAction', () => {
  it('defaults to a same-tab Default link without interstitial', () => {
    expect(callToAction.parse({ text: 'Go', link: '/account/dashboard' })).toMatchObject({
      linkType: 'Default',
      opensIn: 'SameTab',
      showInterstitial: false,
    });
  });

  it('accepts every link type of the spec and refuses others', () => {
    for (const linkType of [
      'submit',
      'primaryFunctional',
      'Close',
      'Logout',
      'Default',
      'GuidewireMTA',
      'GuidewireViewRenewal',
      'GuidewireRequestAChange',
    ]) {
      expect(callToAction.safeParse({ text: 'x', linkType }).success, linkType).toBe(true);
    }
    expect(callToAction.safeParse({ text: 'x', linkType: 'Explode' }).success).toBe(false);
  });
});

describe('safe links and rich text', () => {
  it('allows site paths, https, tel and mailto; refuses script, data and protocol-relative links', () => {
    for (const ok of [
      '/login',
      '/contact-us?primary=1',
      '#main',
      'https://example.co.uk/x',
      'tel:08001234567',
      'mailto:help@example.co.uk',
      '',
    ]) {
      expect(safeLink.safeParse(ok).success, ok).toBe(true);
    }
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,x',
      '//evil.example',
      'http://example.co.uk',
      '/a b',
      'vbscript:x',
    ]) {
      expect(safeLink.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('allows the small tag set and refuses scripts, handlers, styles, iframes and comments', () => {
    expect(
      richTextProblem(
        '<p>Call <a href="tel:08001234567">0800 123 4567</a>.</p><ul><li><strong>x</strong></li></ul>',
      ),
    ).toBeUndefined();
    expect(
      richTextProblem('<a href="/help/terms-of-use" target="_blank" rel="noopener">terms</a>'),
    ).toBeUndefined();
    expect(richTextProblem('<script>alert(1)</script>')).toMatch(/<script>/);
    expect(richTextProblem('<p onclick="x()">x</p>')).toMatch(/onclick/);
    expect(richTextProblem('<p style="color:red">x</p>')).toMatch(/style/);
    expect(richTextProblem('<iframe src="https://x"></iframe>')).toMatch(/iframe/);
    expect(richTextProblem('<a href="javascript:alert(1)">x</a>')).toMatch(/javascript/);
    expect(richTextProblem("<a href='javascript:alert(1)'>x</a>")).toMatch(/javascript/);
    expect(richTextProblem('<!-- hidden -->')).toMatch(/comments/);
    expect(richText.safeParse('<img src=x onerror=alert(1)>').success).toBe(false);
  });
});

describe('pageContent', () => {
  const base = {
    id: 'p',
    url: '/register/activate',
    name: 'Activate',
    requiresAuthentication: false,
    meta: { title: 'Create your password' },
    heading: 'Create your password',
  };

  it('is told apart by type, with defaults for the lists', () => {
    const page = pageContent.parse({ ...base, type: 'PasswordPage', mode: 'activation' });
    expect(page).toMatchObject({ type: 'PasswordPage', mode: 'activation', isMaintenanceMode: false });
    expect(page.blocks).toEqual([]);
    expect(page.fields).toEqual([]);
    expect(page.messages).toEqual({});
    expect(page.experiments).toEqual([]);
  });

  it('refuses an unknown page type, a password page without a mode and a redirect without a target', () => {
    expect(pageContent.safeParse({ ...base, type: 'SecretPage' }).success).toBe(false);
    expect(pageContent.safeParse({ ...base, type: 'PasswordPage' }).success).toBe(false);
    expect(pageContent.safeParse({ ...base, type: 'RedirectPage' }).success).toBe(false);
    expect(
      pageContent.safeParse({ ...base, type: 'RedirectPage', target: 'javascript:alert(1)' }).success,
    ).toBe(false);
  });

  it('refuses a page URL that is not a site path', () => {
    for (const url of ['login', '//evil.example', '/login?x=1', '/log in']) {
      expect(pageContent.safeParse({ ...base, type: 'LoginPage', url }).success, url).toBe(false);
    }
  });

  it('keeps unknown extra fields so content can evolve ahead of the SPA', () => {
    const page = pageContent.parse({ ...base, type: 'LoginPage', newThing: { a: 1 } });
    expect((page as Record<string, unknown>).newThing).toEqual({ a: 1 });
  });

  it('checks experiment variants and block types', () => {
    const experiment = {
      key: 'login-intro-variant',
      variants: [{ id: 'control', weight: 0.5, blocks: [{ id: 'b', type: 'richText', html: '<p>Hi</p>' }] }],
    };
    const page = pageContent.parse({ ...base, type: 'LoginPage', experiments: [experiment] });
    expect(page.experiments[0]?.slot).toBe('beforeBlocks');
    expect(
      pageContent.safeParse({ ...base, type: 'LoginPage', experiments: [{ key: 'x', variants: [] }] })
        .success,
    ).toBe(false);
    expect(contentBlock.safeParse({ id: 'b', type: 'carousel' }).success).toBe(false);
  });
});

describe('navigation', () => {
  it('has header items grouped main or utility, and footer items', () => {
    const nav = navigation.parse({
      header: [
        {
          id: 'a',
          title: 'Dashboard',
          url: '/account/dashboard',
          group: 'main',
          requiresAuthentication: true,
        },
        { id: 'b', title: 'Help', url: '/help/faqs', group: 'utility' },
      ],
      footer: [{ id: 'c', title: 'Privacy', url: '/help/privacy', group: 'footer' }],
    });
    expect(nav.header[1]).toMatchObject({
      requiresAuthentication: false,
      hideWhenAuthenticated: false,
      opensIn: 'SameTab',
    });
    expect(
      navigation.safeParse({ header: [{ id: 'x', title: 'X', url: '/x', group: 'footer' }], footer: [] })
        .success,
    ).toBe(false);
  });
});

describe('query schemas', () => {
  it('accepts only type=SiteSettings and an optional true/false error flag', () => {
    expect(getSiteSettingsQuery.parse({ type: 'SiteSettings', error: 'true' })).toEqual({
      type: 'SiteSettings',
      error: 'true',
    });
    expect(getSiteSettingsQuery.safeParse({ type: 'Pages' }).success).toBe(false);
    expect(getSiteSettingsQuery.safeParse({ type: ['SiteSettings', 'SiteSettings'] }).success).toBe(false);
    expect(getSiteSettingsQuery.safeParse({ type: 'SiteSettings', error: '1' }).success).toBe(false);
  });

  it('accepts a site path up to 2 KB without control characters', () => {
    expect(getPageQuery.safeParse({ relativeUrl: `/${'a'.repeat(2047)}` }).success).toBe(true);
    for (const relativeUrl of [
      `/${'a'.repeat(2048)}`,
      '',
      'login',
      '//evil',
      '/a\u0000',
      '/a\nb',
      ['/a', '/b'],
    ]) {
      expect(getPageQuery.safeParse({ relativeUrl }).success, String(relativeUrl).slice(0, 20)).toBe(false);
    }
  });
});

describe('normaliseContentPath', () => {
  it('drops query, fragment, repeated and trailing slashes, and lower-cases', () => {
    expect(normaliseContentPath('/Account/Policies/?id=102X4567891')).toBe('/account/policies');
    expect(normaliseContentPath('/account//policies//#top')).toBe('/account/policies');
    expect(normaliseContentPath('/')).toBe('/');
    expect(normaliseContentPath('/?x=1')).toBe('/');
    expect(normaliseContentPath('/login')).toBe('/login');
  });
});
