import { expect, type APIRequestContext, type Page } from '@playwright/test';

/**
 * Sign-in steps shared by the sign-in, idle and keyboard journeys. Codes are read from the dev outbox API
 * (`GET /dev/outbox/api?to=...`), never guessed; each read waits for a message that was not there before
 * the code was asked for, so journeys running side by side do not take each other's codes.
 */

export const demo = {
  margaret: {
    email: 'margaret.thompson@example.co.uk',
    password: 'BluebellCottage1952',
    mobile: '07700900123',
    landline: '01632960456',
    /**
     * Her factors, in the order offered: a text or a call to the mobile, a call to the landline (with calls
     * to two lines, each says which it is: issue 38).
     */
    textRadio: 'Text message to +44 XXXX XXX123',
    mobileCallRadio: 'Phone call to your mobile, +44 XXXX XXX123',
    landlineCallRadio: 'Phone call to your landline, +44 XXXX XXX456',
    policyNumber: '102X4567891',
  },
  /** The forgotten-password journey's own customer: his password changes there, nobody else's does. */
  thomas: {
    email: 'thomas.reid@example.co.uk',
    password: 'HarbourTerrace1953',
    mobile: '07700900555',
    textRadio: 'Text message to +44 XXXX XXX555',
  },
  /**
   * The customer of the issue-40 journeys (a message kept over an idle sign-out, documents marked New):
   * no other journey signs her in, so their codes leave the others' hourly allowance alone.
   */
  eleanorVaughan: {
    email: 'eleanor.vaughan@example.co.uk',
    password: 'YewTreeLedbury54',
    mobile: '07700900616',
    textRadio: 'Text message to +44 XXXX XXX616',
  },
  david: {
    email: 'david.okafor@example.co.uk',
    password: 'HomeFarmHarvest61',
    landline: '01632960789',
    landlineCallRadio: 'Phone call to +44 XXXX XXX789',
  },
} as const;

interface OutboxMessage {
  to: string;
  body: string;
  createdAt: string;
  kind: string;
}

const messageKey = (m: OutboxMessage) => `${m.createdAt}|${m.kind}|${m.body}`;

async function outbox(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  const res = await request.get(`/dev/outbox/api?to=${encodeURIComponent(to)}&limit=20`);
  expect(res.status(), 'the dev outbox API answers').toBe(200);
  return ((await res.json()) as { messages: OutboxMessage[] }).messages;
}

/** The digits of a code in a message: a 5 or 6 digit run, or digits read out one by one. */
export function codeIn(body: string): string {
  const plain = /\b(\d{5,6})\b/.exec(body)?.[1];
  if (plain) return plain;
  const spoken = /\d(?:[\s,.-]+\d){4,5}/.exec(body)?.[0];
  if (spoken) return spoken.replace(/\D/g, '');
  throw new Error('no code in the message');
}

/** Remembers the messages already sent to a phone; `next()` waits for the first new one's code. */
export async function watchOutbox(request: APIRequestContext, to: string) {
  const seen = new Set((await outbox(request, to)).map(messageKey));
  return {
    async next(): Promise<string> {
      let found: OutboxMessage | undefined;
      await expect
        .poll(
          async () => {
            const fresh = (await outbox(request, to)).filter((m) => !seen.has(messageKey(m)));
            // Newest first: the oldest new message answers the request made first.
            found = fresh.at(-1);
            return found !== undefined;
          },
          { message: `a new message to ${to}`, timeout: 15_000 },
        )
        .toBe(true);
      seen.add(messageKey(found!));
      return codeIn(found!.body);
    },
  };
}

/** Email and password on the sign-in page, then Sign in. */
export async function enterCredentials(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Email address' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Types a code into the code boxes (each digit moves on to the next box). */
export async function enterCode(page: Page, code: string): Promise<void> {
  await page.getByRole('textbox', { name: /^Digit 1 of/ }).click();
  await page.keyboard.type(code);
}

/**
 * Enters the newest new code and continues. Journeys running side by side may send a code to the same
 * phone; if the code read was theirs (this transaction refuses it), the next new message is tried.
 */
export async function completeChallenge(
  page: Page,
  phone: Awaited<ReturnType<typeof watchOutbox>>,
): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await enterCode(page, await phone.next());
    await page.getByRole('button', { name: 'Continue' }).click();
    const wrong = page.getByRole('alert').filter({ hasText: 'That code is not right' });
    const outcome = await Promise.race([
      page
        .waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 20_000 })
        .then(() => 'signed-in' as const),
      wrong.waitFor({ timeout: 20_000 }).then(() => 'wrong' as const),
    ]);
    if (outcome === 'signed-in') return;
  }
  throw new Error('no code from the outbox was accepted');
}

/** Signs a demo customer in from the sign-in page by a code sent to `phone` (chosen by its radio's name). */
export async function signIn(
  page: Page,
  request: APIRequestContext,
  customer: { email: string; password: string },
  phone: { number: string; radio: string },
  options: { alsoOffered?: readonly string[] } = {},
): Promise<void> {
  const outbox = await watchOutbox(request, phone.number);
  await enterCredentials(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/login\/verify$/);
  for (const choice of options.alsoOffered ?? [])
    await expect(page.getByRole('radio', { name: choice, exact: true })).toBeVisible();
  await page.getByRole('radio', { name: phone.radio, exact: true }).check();
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveURL(/\/login\/verify\/challenge$/);
  await completeChallenge(page, outbox);
  await expectSignedIn(page);
}

/**
 * The header offers Sign out: on a wide screen in its utility links, on a phone in the menu (which the
 * header's menu button opens), so here it is only looked for in the page.
 */
export async function expectSignedIn(page: Page): Promise<void> {
  await expect(
    page.getByRole('button', { name: 'Sign out', exact: true, includeHidden: true }).first(),
  ).toBeAttached();
}

/** The header's sign-out button (the header has a wide and a narrow variant; one shows at a time). */
export function signOutButton(page: Page) {
  return page.getByRole('button', { name: 'Sign out', exact: true }).filter({ visible: true }).first();
}

/** The logout modal the header's sign-out button opens (content log-out-modal-window-block). */
export function logoutModal(page: Page) {
  return page.getByRole('dialog', { name: 'Are you sure you want to sign out?' });
}

/** Signs out as a customer does: the header's sign-out button, then "Yes, sign out" in the logout modal. */
export async function signOut(page: Page): Promise<void> {
  // On a phone the header's links are behind its menu button.
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if (await menu.isVisible()) await menu.click();
  await signOutButton(page).click();
  await logoutModal(page).getByRole('button', { name: 'Yes, sign out' }).click();
}

/** Presses Tab until the element has focus, as a keyboard user would (fails after `max` presses). */
export async function tabTo(page: Page, target: ReturnType<Page['locator']>, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`could not reach ${target.toString()} with the Tab key`);
}

/**
 * After sign-in, a customer who has not made the marketing choice is asked first (spec §4): answers "No,
 * thank you" when asked, and waits for the dashboard either way. Which one comes is decided by the
 * server, and by the journeys that signed the same customer in before.
 */
export async function toDashboardPastMarketingStep(page: Page): Promise<void> {
  const no = page.getByRole('radio', { name: 'No, thank you' });
  const dashboard = /\/account\/dashboard$/;
  const first = await Promise.race([
    page.waitForURL(dashboard, { timeout: 20_000 }).then(
      () => 'dashboard' as const,
      () => 'neither' as const,
    ),
    no.waitFor({ timeout: 20_000 }).then(
      () => 'marketing' as const,
      () => 'neither' as const,
    ),
  ]);
  if (first === 'marketing') {
    await no.check();
    await page.getByRole('button', { name: 'Save and continue' }).click();
  }
  await expect(page).toHaveURL(dashboard);
}
