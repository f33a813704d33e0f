import type { APIRequestContext, Page } from '@playwright/test';
import { signIn, toDashboardPastMarketingStep } from './auth-helpers';
import { expect, test } from './support/fixtures';
import { expectPdfAbout, expectScreenAtEverySize } from './support/screens';

/*
 * Issue 40 point 6, "Done when": a message loaded for the customer through the integration API appears
 * unread in "Your messages" (the menu counts it in its name) and is read after opening. The insurer's side
 * is the demo integration client (outside production, with INTEGRATION_CLIENTS unset). Owen Pritchard is
 * this journey's own demo customer: no other journey signs him in, so its one sign-in spends none of
 * another's hourly codes.
 */

const owen = {
  customerId: 'C1000017',
  email: 'owen.pritchard@example.co.uk',
  password: 'CastleMewsLudlow58',
  policyNumber: '717X1000017',
  directDebitConfirmation: { id: 'ba10000171-dd', account: 'BA10000171' },
};
const phone = { number: '07700900717', radio: 'Text message to +44 XXXX XXX717' };
const demoClient = { clientId: 'demo-system', secret: 'demo-system-secret-not-for-production' };

/** Loads one message for Owen as the insurer's systems would: a token by client credentials, then a PUT. */
async function sendMessage(request: APIRequestContext, messageId: string, subject: string) {
  const basic = Buffer.from(`${demoClient.clientId}:${demoClient.secret}`).toString('base64');
  const token = await request.post('/oauth2/default/v1/token', {
    headers: { authorization: `Basic ${basic}` },
    form: { grant_type: 'client_credentials', scope: 'messages.write' },
  });
  expect(token.status(), 'the token endpoint gives the demo client a token').toBe(200);
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  const put = await request.put(`/integration/v1/customers/${owen.customerId}/messages/${messageId}`, {
    headers: { authorization: `Bearer ${accessToken}` },
    data: {
      version: 1,
      category: 'claim',
      subject,
      body: '<p>We have received your claim for the storm damage to your roof.</p><p>Your claim handler will <strong>call you within two working days</strong>. Your Direct Debit confirmation is below, in case you need your bank details.</p>',
      policyNumber: owen.policyNumber,
      documentId: owen.directDebitConfirmation.id,
    },
  });
  expect(put.status(), `PUT message: ${await put.text()}`).toBe(200);
  expect(await put.json()).toMatchObject({ status: 'created' });
}

/** The main menu's "Your messages", named with how many are unread ("Your messages 2 unread"). */
const messagesItem = (page: Page) =>
  page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: /^Your messages/ });

async function unreadInMenu(page: Page): Promise<number> {
  const name = (await messagesItem(page).textContent()) ?? '';
  return Number(/(\d+) unread/.exec(name)?.[1] ?? 0);
}

test('a message loaded for the customer is unread in "Your messages", counted in the menu, and read once opened', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // The journey's own message: a retry (or a second run on the same data) sends another.
  const messageId = `journey-${Date.now().toString(36)}`;
  const subject = `We have received your claim (${messageId})`;
  await sendMessage(request, messageId, subject);

  await page.goto('/login');
  await signIn(page, request, owen, phone);
  await toDashboardPastMarketingStep(page);

  // The menu says how many are unread, in the link's name: at least the one just sent.
  await expect(messagesItem(page)).toHaveAccessibleName(/^Your messages \d+ unread$/);
  const before = await unreadInMenu(page);
  expect(before).toBeGreaterThanOrEqual(1);
  await messagesItem(page).click();
  await expect(page).toHaveURL(/\/account\/messages$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your messages' })).toBeVisible();

  // Newest first: the message just sent leads, marked unread in words and to the eye.
  const ours = page.getByRole('link', { name: `${subject} (Unread)`, exact: true });
  await expect(ours).toBeVisible();
  const firstRow = page.locator('.message-row').first();
  await expect(firstRow).toContainText(subject);
  await expect(firstRow.locator('.tag', { hasText: 'Unread' })).toBeVisible();
  await expect(firstRow).toContainText('Claim');
  // As many marked unread as the menu says.
  await expect(page.locator('.message-row--unread')).toHaveCount(before);
  await expectScreenAtEverySize(page);

  // Opened: its words, its policy's page and its document.
  await ours.click();
  await expect(page).toHaveURL(new RegExp(`/account/messages\\?id=${messageId}$`));
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  await expect(page.getByText('call you within two working days')).toBeVisible();
  const about = page.getByRole('region', { name: 'About this message' });
  const policyLink = about.getByRole('link', {
    name: `See your Home Insurance policy, ${owen.policyNumber}`,
  });
  await expect(policyLink).toHaveAttribute('href', `/account/policies?id=${owen.policyNumber}`);
  await expect(page).toHaveTitle(`${subject} – Meridian Mutual`);
  // The menu's count goes down at once.
  await expect(messagesItem(page)).toHaveAccessibleName(
    before > 1 ? `Your messages ${before - 1} unread` : 'Your messages',
  );
  await expectScreenAtEverySize(page);
  const download = page.waitForEvent('download');
  await about.getByRole('button', { name: 'Download Direct Debit confirmation' }).click();
  await expectPdfAbout(await download, owen.directDebitConfirmation.account);

  // Back in the list it is read: no longer marked, here or in the menu, after a reload too (the service
  // recorded it, for every device).
  await page.getByRole('link', { name: 'Back to your messages' }).click();
  await expect(page).toHaveURL(/\/account\/messages$/);
  await expect(page.getByRole('link', { name: subject, exact: true })).toBeVisible();
  await expect(page.locator('.message-row').first().locator('.tag')).toHaveCount(0);
  await expect(page.locator('.message-row--unread')).toHaveCount(before - 1);
  await page.reload();
  await expect(page.getByRole('link', { name: subject, exact: true })).toBeVisible();
  await expect(page.locator('.message-row--unread')).toHaveCount(before - 1);
  await expectScreenAtEverySize(page);

  // Its policy link leads to the policy's page.
  await page.getByRole('link', { name: subject, exact: true }).click();
  await page.getByRole('link', { name: `See your Home Insurance policy, ${owen.policyNumber}` }).click();
  await expect(page).toHaveURL(new RegExp(`/account/policies\\?id=${owen.policyNumber}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(owen.policyNumber);
});
