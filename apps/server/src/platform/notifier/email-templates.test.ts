import { parse, type DefaultTreeAdapterMap, type ParserError } from 'parse5';
import { describe, expect, it } from 'vitest';
import { demoCustomers } from '../../db/demo/customers';
import { demoPortfolio } from '../../db/demo/portfolio';
import { contactAcknowledgementEmail, contactMessageEmail } from '../../modules/account/contact-emails';
import { documentNoticeEmail, type NoticeItem } from '../../modules/document/notice-email';
import {
  activationEmail,
  addressInUseEmail,
  alreadyRegisteredEmail,
  emailChangeCodeEmail,
  newDeviceEmail,
  passwordResetEmail,
  securityEmail,
  unlockEmail,
  type SecurityEvent,
} from '../../modules/identity/emails';
import {
  accountClosedEmail,
  emailChangedEmail,
  mobileChangedEmail,
  passwordChangedEmail,
} from '../../modules/portal/account-emails';
import { escapeHtml, renderEmail } from './email-template';
import type { OutboundMessage } from './message';

/*
 * Issue 40 point 8: every email template, rendered with a demo customer's data, has both parts; the HTML
 * is well formed, in British English, with no image, script or remote resource; the two parts carry the
 * same links, each to the portal; a name is escaped in the HTML; and neither part names any personal
 * detail but the first name (the few a template must show are listed with it, and why).
 */

type Element = DefaultTreeAdapterMap['element'];
type Node = DefaultTreeAdapterMap['node'];

const publicUrl = 'https://portal.example.co.uk';
const at = new Date('2026-03-03T14:05:00Z');
const token = 'Zx9-aB_3kLmN0pQrStUvWxYz1234567890AbCdEfGhI';

// Margaret Thompson, the first demo customer, and her home policy.
const margaret = demoCustomers[0]!;
const margaretPolicy = demoPortfolio(at).customers.find((c) => c.customerId === margaret.customerId)!
  .policies[0]!;
const demo = {
  customerId: margaret.customerId,
  firstName: margaret.firstName,
  lastName: margaret.lastName,
  email: margaret.email!,
  mobile: margaret.mobileNumber!,
  landline: margaret.landlineNumber!,
  postCode: margaret.postCode,
  dateOfBirth: margaret.dateOfBirth,
  street: margaret.addressLineTwo,
  policyNumber: margaretPolicy.policyNumber,
  premium: margaretPolicy.annualPremium,
};
/** Her new details in a change of email address or mobile number. */
const newEmail = 'margaret.t.new@example.co.uk';
const newMobile = '07700900987';

/** A first name that is markup, with the characters HTML must escape. */
const hostileName = `<b>O'Brien & Co</b>`;

/** Her personal details, each as it might be written, that no email may carry (bar a template's exceptions). */
function personalDetails(): Array<{ what: string; pattern: RegExp }> {
  const digitsOf = (phone: string) => phone.replace(/\D/g, '');
  const phone = (number: string) => {
    const national = digitsOf(number).replace(/^0/, '');
    // 07700900123, 07700 900123, +44 7700 900123: the digits after the leading 0 in any grouping.
    return new RegExp(national.split('').join('[\\s-]?'));
  };
  const [year, month, day] = demo.dateOfBirth.split('-');
  const longDate = new Date(`${demo.dateOfBirth}T12:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
  const literal = (s: string) => new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  return [
    { what: 'surname', pattern: literal(demo.lastName) },
    { what: 'email address', pattern: literal(demo.email) },
    { what: 'new email address', pattern: literal(newEmail) },
    { what: 'mobile number', pattern: phone(demo.mobile) },
    { what: 'new mobile number', pattern: phone(newMobile) },
    { what: 'landline number', pattern: phone(demo.landline) },
    { what: 'postcode', pattern: new RegExp(demo.postCode.replace(/\s+/, '\\s*'), 'i') },
    { what: 'street', pattern: literal(demo.street) },
    { what: 'date of birth (ISO)', pattern: literal(demo.dateOfBirth) },
    { what: 'date of birth (numeric)', pattern: literal(`${day}/${month}/${year}`) },
    { what: 'date of birth (long)', pattern: literal(longDate) },
    { what: 'policy number', pattern: literal(demo.policyNumber) },
    { what: 'an amount in pounds', pattern: /£\s?\d/ },
    { what: 'the premium', pattern: literal(demo.premium.toFixed(2)) },
  ];
}

// ---- reading the HTML part

function parseHtml(html: string) {
  const errors: ParserError[] = [];
  const document = parse(html, { onParseError: (error) => errors.push(error) });
  return { document, errors };
}

function* elements(node: Node): Generator<Element> {
  if ('tagName' in node) yield node;
  if ('childNodes' in node) for (const child of node.childNodes) yield* elements(child);
  if ('content' in node) yield* elements(node.content);
}

const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;

/** The text a reader sees, decoded (whitespace collapsed). */
function visibleText(node: Node): string {
  const parts: string[] = [];
  const walk = (n: Node) => {
    if (n.nodeName === '#text' && 'value' in n) parts.push(n.value);
    if ('childNodes' in n) for (const child of n.childNodes) walk(child);
  };
  walk(node);
  return parts.join(' ').replace(/\s+/g, ' ');
}

/** Links in the text part: web addresses, and any mailto: or tel: the template means. */
const textLinks = (text: string) =>
  new Set(
    [...text.matchAll(/(?:https?:\/\/|mailto:|tel:)[^\s<>"]+/g)].map((m) => m[0].replace(/[.,;:)]+$/, '')),
  );

/** Removes the links from a text (where an exception allows a detail in a link only). */
const withoutLinks = (text: string) => text.replace(/(?:https?:\/\/|mailto:|tel:)[^\s<>"]+/g, ' ');

interface Exception {
  /** The `what` of a personal detail the template shows. */
  what: string;
  /** Where: anywhere, or only inside a link's address. */
  where: 'anywhere' | 'in a link';
  why: string;
}

interface Checks {
  /** The links both parts must carry, exactly. */
  links: readonly string[];
  /** The personal details (beyond the first name) this template shows by its nature. */
  exceptions?: readonly Exception[];
  /** The text part is the greeting's: the first name it was given (null: the template greets no one). */
  firstName?: string | null;
}

/** Every check of point 8 on one rendered message. */
function checkEmail(message: OutboundMessage, checks: Checks): void {
  const { text, html } = message;
  expect(message.channel).toBe('email');
  expect(message.subject).toBeTruthy();
  expect(text.trim().length).toBeGreaterThan(0);
  expect(html, 'the HTML part').toBeTruthy();
  if (!html) return;

  // Well formed: no parse error at all (a doctype, every element closed where HTML needs it).
  const { document, errors } = parseHtml(html);
  expect(errors.map((e) => `${e.code} at ${e.startLine}:${e.startCol}`)).toEqual([]);
  const all = [...elements(document)];
  const root = all.find((el) => el.tagName === 'html')!;
  expect(attr(root, 'lang')).toBe('en-GB');
  const title = all.find((el) => el.tagName === 'title');
  expect(title && visibleText(title).trim()).toBe(message.subject);
  expect(all.some((el) => el.tagName === 'meta' && attr(el, 'charset') === 'utf-8')).toBe(true);

  // Readable with images off, nothing fetched, nothing run: no image, script, frame, form, stylesheet
  // link or embedded object, no src, background or url() anywhere, no event handler.
  for (const tag of [
    'img',
    'script',
    'iframe',
    'object',
    'embed',
    'form',
    'link',
    'style',
    'picture',
    'svg',
  ]) {
    expect(
      all.filter((el) => el.tagName === tag),
      `<${tag}>`,
    ).toEqual([]);
  }
  expect(html).not.toMatch(/<img|<script/i);
  for (const el of all) {
    for (const a of el.attrs) {
      expect(['src', 'srcset', 'background', 'poster', 'action'], `${el.tagName}[${a.name}]`).not.toContain(
        a.name,
      );
      expect(a.name.startsWith('on'), `${el.tagName}[${a.name}]`).toBe(false);
      expect(a.value, `${el.tagName}[${a.name}]`).not.toMatch(/url\s*\(|javascript:/i);
    }
  }
  expect(html).not.toMatch(/\ssrc=/i);

  // The same links in both parts, each where the template means it.
  const hrefs = new Set(all.filter((el) => el.tagName === 'a').map((el) => attr(el, 'href') ?? ''));
  expect([...textLinks(text)].sort(), 'links in the text part').toEqual([...new Set(checks.links)].sort());
  expect([...hrefs].sort(), 'links in the HTML part').toEqual([...new Set(checks.links)].sort());
  for (const href of hrefs) {
    expect(href.startsWith(`${publicUrl}/`) || /^(mailto|tel):/.test(href), href).toBe(true);
  }

  // Both parts say the same: every line of the text part is in the HTML's visible text (links and all).
  // (A label's colon is layout: "label: address" in the text is the label over its address in the HTML.)
  const words = (s: string) =>
    s
      .replace(/:(\s|$)/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const seen = visibleText(document);
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    expect(words(seen), 'the text part, in the HTML').toContain(words(line.replace(/^- /, '')));
  }

  // The greeting, by first name only.
  if (checks.firstName !== undefined) {
    const greeting = checks.firstName === null ? /^(Hello|Dear customer),\n/ : `Dear ${checks.firstName},\n`;
    if (typeof greeting === 'string') expect(text.startsWith(greeting), text.slice(0, 40)).toBe(true);
    else expect(text).toMatch(greeting);
  }

  // No personal detail but the first name, in either part (the HTML as read: its text and its attributes).
  const htmlRead = `${seen} ${all.flatMap((el) => el.attrs.map((a) => a.value)).join(' ')}`;
  for (const { what, pattern } of personalDetails()) {
    const exception = checks.exceptions?.find((e) => e.what === what);
    if (exception?.where === 'anywhere') continue;
    for (const [part, content] of [
      ['text part', text],
      ['HTML part', htmlRead],
    ] as const) {
      const checked = exception?.where === 'in a link' ? withoutLinks(content) : content;
      expect(checked, `${what} in the ${part}`).not.toMatch(pattern);
    }
  }
}

/** The template with a first name that is markup: the text part has it as is, the HTML part escaped. */
function checkEscaped(message: OutboundMessage): void {
  expect(message.text).toContain(`Dear ${hostileName},`);
  const html = message.html!;
  expect(html).toContain(`Dear ${escapeHtml(hostileName)},`);
  expect(html).toContain('Dear &lt;b&gt;O&#39;Brien &amp; Co&lt;/b&gt;,');
  const { document, errors } = parseHtml(html);
  expect(errors).toEqual([]);
  // No element came of it: the body's only b-less text holds the name as typed.
  const bold = [...elements(document)].filter((el) => el.tagName === 'b');
  expect(bold).toEqual([]);
  expect(visibleText(document)).toContain(`Dear ${hostileName},`);
}

const person = (firstName: string) => ({ firstName, customerId: demo.customerId });

describe('email templates (issue 40 point 8)', () => {
  it('renders one description to both parts, escaping every value in the HTML', () => {
    const { text, html } = renderEmail({
      subject: 'A <subject> & "quotes"',
      greeting: `Dear ${hostileName},`,
      blocks: [],
    });
    expect(text).toBe(`Dear ${hostileName},\n`);
    expect(html).toContain('<title>A &lt;subject&gt; &amp; &quot;quotes&quot;</title>');
    expect(html).toContain('Dear &lt;b&gt;O&#39;Brien &amp; Co&lt;/b&gt;,');
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('activationEmail', () => {
    const render = (name: string) => activationEmail(demo.email, person(name), publicUrl, token);
    checkEmail(render(demo.firstName), {
      firstName: demo.firstName,
      links: [`${publicUrl}/register/activate?token=${token}`],
    });
    checkEscaped(render(hostileName));
  });

  it('alreadyRegisteredEmail', () => {
    const render = (name: string) => alreadyRegisteredEmail(demo.email, person(name), publicUrl);
    checkEmail(render(demo.firstName), { firstName: demo.firstName, links: [`${publicUrl}/login`] });
    checkEscaped(render(hostileName));
  });

  it('passwordResetEmail', () => {
    const render = (name: string) => passwordResetEmail(demo.email, person(name), publicUrl, token);
    checkEmail(render(demo.firstName), {
      firstName: demo.firstName,
      links: [`${publicUrl}/forgotten-password/new-password?token=${token}`],
    });
    checkEscaped(render(hostileName));
  });

  it('unlockEmail', () => {
    const render = (name: string) => unlockEmail(demo.email, person(name), publicUrl, token);
    checkEmail(render(demo.firstName), {
      firstName: demo.firstName,
      links: [`${publicUrl}/login?unlock=${token}`],
    });
    checkEscaped(render(hostileName));
  });

  it('securityEmail (every event)', () => {
    const events: SecurityEvent[] = [
      'app-added',
      'app-removed',
      'backup-codes-created',
      'backup-codes-removed',
      'backup-code-used',
      'passkey-added',
      'passkey-removed',
    ];
    for (const event of events) {
      const message = securityEmail(demo.email, person(demo.firstName), publicUrl, event, at);
      expect(message.kind).toBe(`security-${event}`);
      checkEmail(message, { firstName: demo.firstName, links: [`${publicUrl}/login`] });
    }
    checkEscaped(securityEmail(demo.email, person(hostileName), publicUrl, 'passkey-added', at));
  });

  it('emailChangeCodeEmail', () => {
    const render = (name: string) => emailChangeCodeEmail(newEmail, person(name), '482913');
    const message = render(demo.firstName);
    checkEmail(message, { firstName: demo.firstName, links: [] });
    // The code, on its own line in the text and shown in the HTML.
    expect(message.text).toContain('\n\n482913\n\n');
    expect(message.html).toMatch(/>482913<\/p>/);
    checkEscaped(render(hostileName));
  });

  it('addressInUseEmail', () => {
    // Goes to whoever owns the address: it greets no one by name.
    checkEmail(addressInUseEmail(demo.email, publicUrl), { firstName: null, links: [`${publicUrl}/login`] });
  });

  it('newDeviceEmail', () => {
    const render = (name: string) =>
      newDeviceEmail(demo.email, person(name), publicUrl, {
        at,
        browser: 'Firefox 131',
        os: 'Windows',
        // The sign-in's network comes masked (oidc's maskNetwork): it says roughly where from, not who.
        network: '81.2.69.xxx',
      });
    const message = render(demo.firstName);
    checkEmail(message, {
      firstName: demo.firstName,
      links: [`${publicUrl}/profile/login-security`, `${publicUrl}/login`],
    });
    expect(message.text).toContain(
      'When: 3 March 2026 at 14:05 (UK time)\nBrowser: Firefox 131 on Windows\n',
    );
    expect(message.text).toContain('Network: 81.2.69.xxx\n');
    checkEscaped(render(hostileName));
  });

  it('contactMessageEmail (to the insurer, not the customer)', () => {
    const message = contactMessageEmail({
      to: 'customer.service@portal.example.co.uk',
      customerId: demo.customerId,
      customerName: `${demo.firstName} ${demo.lastName}`,
      productType: 'home',
      messageType: 'Make a change to my policy',
      messageText: 'We are having a conservatory built.\nWho should I tell? <script>alert(1)</script>',
    });
    checkEmail(message, {
      links: [],
      exceptions: [
        {
          what: 'surname',
          where: 'anywhere',
          why: "the insurer's customer service inbox must know who wrote: the customer's full name and number",
        },
      ],
    });
    expect(message.text).toBe(
      `From: ${demo.firstName} ${demo.lastName} (customer ${demo.customerId})\n` +
        'About: home, Make a change to my policy\n\n' +
        'We are having a conservatory built.\nWho should I tell? <script>alert(1)</script>\n',
    );
    // What the customer typed is text in the HTML, its line breaks kept.
    expect(message.html).toContain(
      'We are having a conservatory built.<br>\nWho should I tell? &lt;script&gt;alert(1)&lt;/script&gt;',
    );
  });

  it('contactAcknowledgementEmail', () => {
    const render = (name: string) =>
      contactAcknowledgementEmail({ to: demo.email, customerId: demo.customerId, firstName: name });
    checkEmail(render(demo.firstName), { firstName: demo.firstName, links: [] });
    checkEscaped(render(hostileName));
  });

  it('passwordChangedEmail', () => {
    const render = (name: string) =>
      passwordChangedEmail({ to: demo.email, customerId: demo.customerId, firstName: name });
    checkEmail(render(demo.firstName), { firstName: demo.firstName, links: [] });
    checkEscaped(render(hostileName));
  });

  it('emailChangedEmail', () => {
    const render = (name: string | null) =>
      emailChangedEmail(
        { to: demo.email, customerId: demo.customerId, firstName: name },
        { siteName: 'Meridian Mutual', at, newEmail },
      );
    const message = render(demo.firstName);
    // The new address, masked as the message has always shown it: the first letter and the domain, so the
    // owner of the old one can tell whether it was their change. Never whole (the check above).
    checkEmail(message, { firstName: demo.firstName, links: [] });
    expect(message.text).toContain('to m***@example.co.uk.');
    expect(message.html).toContain('to m***@example.co.uk.');
    checkEmail(render(null), { firstName: null, links: [] });
    checkEscaped(render(hostileName));
  });

  it('mobileChangedEmail (changed and added)', () => {
    for (const replaced of [true, false]) {
      const message = mobileChangedEmail(
        { to: demo.email, customerId: demo.customerId, firstName: demo.firstName },
        { siteName: 'Meridian Mutual', at, newNumber: newMobile, replaced },
      );
      expect(message.kind).toBe(replaced ? 'mobile-changed' : 'mobile-added');
      // The new number by its last 3 digits only, as it has always said: enough to recognise, not to call.
      checkEmail(message, { firstName: demo.firstName, links: [] });
      expect(message.text).toContain('the number ending 987 from now on');
    }
    checkEscaped(
      mobileChangedEmail(
        { to: demo.email, customerId: demo.customerId, firstName: hostileName },
        { siteName: 'Meridian Mutual', at, newNumber: newMobile, replaced: true },
      ),
    );
  });

  it('accountClosedEmail', () => {
    const render = (name: string | null) =>
      accountClosedEmail(
        { to: demo.email, customerId: demo.customerId, firstName: name },
        { siteName: 'Meridian Mutual', at },
      );
    checkEmail(render(demo.firstName), { firstName: demo.firstName, links: [] });
    checkEmail(render(null), { firstName: null, links: [] });
    checkEscaped(render(hostileName));
  });

  it('documentNoticeEmail (every category, one and many)', () => {
    const item = (
      category: NoticeItem['category'],
      kind: string,
      extra: Partial<NoticeItem> = {},
    ): NoticeItem => ({
      category,
      kind,
      change: 'new',
      policyNumber: null,
      arrivedAt: at,
      ...extra,
    });
    const items = [
      item('bill', 'statement'),
      item('policy', 'schedule', { policyNumber: demo.policyNumber, change: 'updated' }),
      item('quote', 'quote_summary'),
      item('message', 'renewal'),
    ];
    const render = (name: string, list: NoticeItem[]) =>
      documentNoticeEmail({
        to: demo.email,
        firstName: name,
        customerId: demo.customerId,
        publicUrl,
        items: list,
        reference: 'batch-1',
      });
    const policyPage = `${publicUrl}/account/policies/documents?id=${demo.policyNumber}`;
    const exceptions: Exception[] = [
      {
        what: 'policy number',
        where: 'in a link',
        why:
          "the policy documents page is addressed by the policy's number (?id=), as the portal's own links " +
          'are; it appears in that link only, never in a sentence',
      },
    ];
    const many = render(demo.firstName, items);
    checkEmail(many, {
      firstName: demo.firstName,
      links: [
        `${publicUrl}/account/bills-and-payments`,
        policyPage,
        `${publicUrl}/account/dashboard`,
        `${publicUrl}/account/messages`,
      ],
      exceptions,
    });
    expect(many.text).toContain('- Policy schedule (updated), added 3 March 2026');
    expect(many.html).toMatch(/<li[^>]*>Policy schedule \(updated\), added 3 March 2026/);
    expect(many.reference).toBe('batch-1');
    for (const one of items) {
      const policy = one.category === 'policy';
      checkEmail(render(demo.firstName, [one]), {
        firstName: demo.firstName,
        links: [
          {
            bill: `${publicUrl}/account/bills-and-payments`,
            policy: policyPage,
            quote: `${publicUrl}/account/dashboard`,
            message: `${publicUrl}/account/messages`,
          }[one.category],
        ],
        exceptions: policy ? exceptions : [],
      });
    }
    checkEscaped(render(hostileName, items.slice(0, 1)));
  });
});
