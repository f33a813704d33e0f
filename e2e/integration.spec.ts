import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import PDFDocument from 'pdfkit';
import { Webhook } from 'standardwebhooks';
import { codeIn, completeChallenge, enterCredentials, signOut, signOutButton } from './auth-helpers';
import { expectNoA11yFindingsAtAnyLevel, expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { integrationClient } from './support/integration-api';
import {
  allIntegrationScopes,
  startProductionPortal,
  type ProductionPortal,
} from './support/production-portal';
import { nationalNumber, textOf } from './support/receivers';

/*
 * Issue 22, "Done when": a production portal (NODE_ENV=production, no demo data) of the journey's own is
 * given one customer, two policies, a bill and a welcome message through the integration API alone. The
 * customer then registers, signs in, sees the policies and downloads the bill's exact bytes, and the
 * marketing choice made at the first sign-in reaches the insurer's webhook receiver, signed. Codes and the
 * activation link are read where a production portal sends them: the SMS gateway and SMTP receivers.
 */

const customer = {
  customerId: 'C7000001',
  title: 'Ms',
  firstName: 'Isla',
  lastName: 'Penrose',
  dateOfBirth: '1984-03-14',
  email: 'isla.penrose@example.co.uk',
  mobile: '07700900777',
  postcode: 'TR18 4AF',
  password: 'HarbourLightsPenzance84',
};
const homePolicy = '701X7000001';
const motorPolicy = '701Q70000002';
const account = 'BA7000001';
const bill = {
  documentId: 'annual-bill-2026',
  name: 'Annual bill 2026',
  fileName: 'annual-bill-BA7000001-2026.pdf',
};

/** YYYY-MM-DD of today moved by whole days and years (UTC). */
function day(days: number, years = 0): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** A small real PDF, as the insurer's document system would make one. */
function billPdf(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ info: { Title: `Annual bill ${account}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(18).text(`Annual bill for billing account ${account}`);
    doc.fontSize(12).text(`${customer.title} ${customer.firstName} ${customer.lastName}`);
    doc.text('Home Insurance 701X7000001: £642.10');
    doc.text('Motor Insurance 701Q70000002: £418.00');
    doc.end();
  });
}

const simpleLine = (
  type: string,
  coverLevel: string,
  risk: string,
  registration: string | null,
  covers: string[],
) => ({
  type,
  coverLevel,
  risks: [{ displayName: risk, registration, covers: covers.map((c) => ({ type: c })) }],
  valuables: [],
  bicycles: [],
});

const policyRecord = (fields: {
  productType: string;
  productName: string;
  apiProductType: string;
  policyType: string;
  premium: number;
  vehicleReg: string[];
  line: ReturnType<typeof simpleLine>;
}) => ({
  version: 1,
  customerId: customer.customerId,
  productType: fields.productType,
  productName: fields.productName,
  apiProductType: fields.apiProductType,
  policyType: fields.policyType,
  status: 'Active',
  startDate: day(-100),
  renewalDate: day(-100, 1),
  annualPremium: { visible: true, value: fields.premium },
  paymentFrequency: 'Annual',
  policyHolders: [{ name: `${customer.title} ${customer.firstName} ${customer.lastName}`, primary: true }],
  vehicleReg: fields.vehicleReg,
  linesOfBusiness: [fields.line],
  isMigrationRenewal: false,
  allowMTA: true,
  onlineViewRenewal: false,
  agencyId: null,
});

/** Loads the customer's records through the integration API, as the insurer's systems would. */
async function loadRecords(portal: ProductionPortal, pdf: Buffer): Promise<void> {
  const api = await integrationClient(portal, allIntegrationScopes);
  const created = (path: string, record: Record<string, unknown>) =>
    expect(api.put(path, record)).resolves.toMatchObject({ status: 'created' });

  await created(`/integration/v1/customers/${customer.customerId}`, {
    version: 1,
    title: customer.title,
    firstName: customer.firstName,
    lastName: customer.lastName,
    dateOfBirth: customer.dateOfBirth,
    email: customer.email,
    mobileNumber: customer.mobile,
    landlineNumber: null,
    address: {
      lineOne: 'Gull Cottage',
      lineTwo: '4 Quay Street',
      lineThree: '',
      town: 'Penzance',
      county: 'Cornwall',
      postCode: customer.postcode,
    },
    agencyId: null,
  });
  await created(
    `/integration/v1/policies/${homePolicy}`,
    policyRecord({
      productType: 'PHL',
      productName: 'Home Insurance',
      apiProductType: 'home',
      policyType: 'Home Insurance',
      premium: 642.1,
      vehicleReg: [],
      line: simpleLine('Home', 'Premier', 'Buildings', null, ['Buildings', 'Accidental damage']),
    }),
  );
  await created(
    `/integration/v1/policies/${motorPolicy}`,
    policyRecord({
      productType: 'MPC',
      productName: 'Motor Insurance',
      apiProductType: 'motor',
      policyType: 'Car Insurance',
      premium: 418,
      vehicleReg: ['WK21 PZN'],
      line: simpleLine('Motor', 'Comprehensive', 'Skoda Octavia Estate', 'WK21 PZN', [
        'Comprehensive',
        'Windscreen',
      ]),
    }),
  );

  const file = await api.upload(pdf);
  expect(file).toEqual({
    status: 201,
    sha256: createHash('sha256').update(pdf).digest('hex'),
    size: pdf.length,
  });
  await created(`/integration/v1/billing-accounts/${account}`, {
    version: 1,
    customerId: customer.customerId,
    paymentMethod: 'DirectDebit',
    collectionDay: 14,
    bankAccountEnding: '42',
    policyNumbers: [homePolicy, motorPolicy],
  });
  await created(`/integration/v1/billing-accounts/${account}/documents/${bill.documentId}`, {
    version: 1,
    kind: 'annual_bill',
    name: bill.name,
    date: day(-100),
    policyNumber: null,
    file: { sha256: file.sha256, fileName: bill.fileName },
  });

  await created('/integration/v1/notifications/welcome-e2e', {
    version: 1,
    type: 'WELCOME',
    startsAt: null,
    endsAt: null,
  });
  await created(`/integration/v1/customers/${customer.customerId}/notifications/welcome-e2e`, { version: 1 });
}

/** Codes texted to the customer's mobile, read from the SMS gateway receiver, each message once. */
function phone(portal: ProductionPortal) {
  let read = portal.texts.inbox.messages.length;
  return {
    async next(): Promise<string> {
      const message = await portal.texts.inbox.next((m) => nationalNumber(textOf(m).to) === customer.mobile, {
        after: read,
        what: `a text to ${customer.mobile}`,
      });
      read = portal.texts.inbox.messages.indexOf(message) + 1;
      return codeIn(textOf(message).text);
    },
  };
}

async function fillRegistration(page: Page) {
  await page.getByRole('textbox', { name: 'Email address' }).fill(customer.email);
  const [y, m, d] = customer.dateOfBirth.split('-');
  await page.getByRole('textbox', { name: 'Date of birth' }).pressSequentially(`${d}${m}${y}`);
  await expect(page.getByRole('textbox', { name: 'Date of birth' })).toHaveValue(`${d}/${m}/${y}`);
  await page.getByRole('textbox', { name: 'Postcode' }).fill(customer.postcode);
  await page.getByRole('checkbox', { name: 'I have read and agree to the terms of use' }).check();
}

const policiesSection = (page: Page) => page.getByRole('region', { name: 'Your policies' });

test.describe('integration: records in, changes out (production portal)', () => {
  // Starting a production portal creates its database (up to 4 minutes on a loaded machine); the journey
  // itself is a registration, two sign-ins and every screen scanned by axe.
  test.describe.configure({ mode: 'serial', timeout: 240_000 });

  let portal: ProductionPortal;
  let pdf: Buffer;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    [portal, pdf] = await Promise.all([startProductionPortal(), billPdf()]);
  });

  test.afterAll(async () => {
    await portal?.stop();
  });

  test('one customer loaded through the API registers, sees the policies, downloads the bill; the marketing choice arrives signed', async ({
    page,
  }) => {
    const at = (path: string) => `${portal.url}${path}`;

    await test.step('a production portal: no dev outbox, and the customer is not known yet', async () => {
      expect((await fetch(at('/dev/outbox/api'))).status).toBe(404);
      await page.goto(at('/register'));
      await fillRegistration(page);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('heading', { name: 'We could not find your details' })).toBeVisible();
      await expectNoA11yFindingsAtAnyLevel(page);
    });

    await test.step('the insurer loads the records', () => loadRecords(portal, pdf));

    await test.step('register and activate from the email', async () => {
      await page.goto(at('/register'));
      await expect(
        page.getByRole('heading', { level: 1, name: 'Register for an online account' }),
      ).toBeVisible();
      await expectNoA11yFindingsAtAnyLevel(page);
      await fillRegistration(page);
      const emailsBefore = portal.emails.inbox.messages.length;
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(/\/register\/check-your-email$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
      await expectNoA11yFindingsAtAnyLevel(page);

      const activation = await portal.emails.inbox.next((m) => m.to.includes(customer.email), {
        after: emailsBefore,
        what: `the activation email to ${customer.email}`,
      });
      const link = /https?:\/\/\S+/.exec(activation.text)?.[0];
      expect(link, 'the activation email has a link').toBeDefined();
      // The link leads to this portal: its public URL, not a demo or development address.
      expect(link!.startsWith(`${portal.url}/register/activate?token=`)).toBe(true);
      await page.goto(link!);
      await expect(page.getByRole('heading', { level: 1, name: 'Create your password' })).toBeVisible();
      await expectNoA11yFindingsAtAnyLevel(page);
    });

    const webhooksBefore = portal.webhooks.inbox.messages.length;
    await test.step('set a password, confirm by a texted code, make the marketing choice', async () => {
      const texts = phone(portal);
      await page.getByLabel('Create a password').fill(customer.password);
      await page.getByRole('button', { name: 'Create password' }).click();
      await expect(page).toHaveURL(/\/login\/verify$/);
      await expectNoA11yFindingsAtAnyLevel(page);
      await page.getByRole('radio', { name: /^Text message to/ }).check();
      await page.getByRole('button', { name: 'Send code' }).click();
      await expect(page).toHaveURL(/\/login\/verify\/challenge$/);
      await expectNoA11yFindingsAtAnyLevel(page);
      await completeChallenge(page, texts);

      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByRole('heading', { level: 1, name: 'How we keep in touch' })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await page.getByRole('checkbox', { name: 'Email' }).check();
      await page.getByRole('radio', { name: 'Yes, show me tailored offers' }).check();
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await expect(page).toHaveURL(/\/account\/dashboard$/);
    });

    await test.step('the marketing choice reaches the webhook receiver, signed', async () => {
      const delivery = await portal.webhooks.inbox.next(
        (m) => (JSON.parse(m.body) as { type?: string }).type === 'customer.marketing.updated',
        { after: webhooksBefore, what: 'a customer.marketing.updated webhook' },
      );
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(delivery.headers[h])]),
      );
      // Throws unless the signature is the configured secret's over these exact bytes, and recent.
      const event = new Webhook(portal.webhookSecret).verify(delivery.body, headers);
      expect(event).toMatchObject({
        type: 'customer.marketing.updated',
        data: {
          customerId: customer.customerId,
          marketing: { email: true, online: true },
          journey: 'registration',
          channel: 'portal',
        },
      });
      // A receiver that sees the same signature with other bytes refuses them.
      expect(() =>
        new Webhook(portal.webhookSecret).verify(
          delivery.body.replace(customer.customerId, 'C7000002'),
          headers,
        ),
      ).toThrow();
    });

    await test.step('the dashboard: the welcome message once, both policies', async () => {
      const welcome = page.getByRole('dialog', { name: 'Everything about your cover, in one place' });
      await expect(welcome).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await welcome.getByRole('button', { name: 'Close welcome message' }).click();
      await expect(welcome).toBeHidden();

      await expect(page.getByRole('heading', { level: 1 })).toContainText(customer.firstName);
      await expect(policiesSection(page).getByRole('listitem')).toHaveCount(2);
      for (const policyNumber of [homePolicy, motorPolicy]) {
        await expect(
          policiesSection(page).getByRole('link', { name: new RegExp(`View policy .*${policyNumber}`) }),
        ).toBeVisible();
      }
      await expectNoSeriousA11yViolations(page);

      await policiesSection(page)
        .getByRole('link', { name: new RegExp(`View policy .*${homePolicy}`) })
        .click();
      await expect(page).toHaveURL(new RegExp(`/account/policies/?\\?id=${homePolicy}$`));
      await expect(page.getByRole('heading', { level: 1 })).toContainText(homePolicy);
      await expect(page.getByRole('region', { name: 'Policy details' }).getByText('£642.10')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });

    await test.step("bills and payments: the bill's exact bytes, under its name", async () => {
      await page.getByRole('link', { name: 'Bills and payments' }).first().click();
      await expect(page).toHaveURL(/\/account\/bills-and-payments$/);
      await expect(page.getByRole('heading', { name: `Billing account ${account}` })).toBeVisible();
      const view = page.getByRole('button', { name: `View PDF ${bill.name}` });
      await expect(view).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      const download = page.waitForEvent('download');
      await view.click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(bill.fileName);
      expect((await readFile(await file.path())).equals(pdf)).toBe(true);
      await expectNoSeriousA11yViolations(page);
    });

    await test.step('she is paperless (the first sign-in step chose it), and asks for texts too', async () => {
      await page.goto(at('/profile/preferences'));
      await expect(page.getByText('You currently get your documents online.')).toBeVisible();
      // Issue 40 point 4: email is always on while paperless; texts to her mobile are hers to choose.
      const notices = page.getByRole('region', { name: 'Tell me when a new document is ready' });
      await expect(notices.getByText('so we always email you when a new one is ready')).toBeVisible();
      await notices.getByRole('checkbox', { name: 'By text message to +44 XXXX XXX777' }).check();
      await notices.getByRole('button', { name: 'Save how we tell you' }).click();
      await expect(notices.getByText('How we tell you about new documents has been saved.')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });

    // Issue 40: a new bill and a renewal pack loaded for a paperless customer: one email lists both and
    // leads to them, both New; the insurer is told she was told, signed.
    const emailsBeforeNotice = portal.emails.inbox.messages.length;
    const webhooksBeforeNotice = portal.webhooks.inbox.messages.length;
    const textsBeforeNotice = portal.texts.inbox.messages.length;
    await test.step('the insurer loads a new bill and a policy pack', async () => {
      const api = await integrationClient(portal, allIntegrationScopes);
      const file = await api.upload(pdf);
      await expect(
        api.put(`/integration/v1/billing-accounts/${account}/documents/statement-e2e`, {
          version: 1,
          kind: 'statement',
          name: 'Your statement',
          date: day(0),
          policyNumber: null,
          file: { sha256: file.sha256, fileName: 'statement.pdf' },
        }),
      ).resolves.toMatchObject({ status: 'created' });
      await expect(
        api.put(`/integration/v1/policies/${homePolicy}/document-packs/mta-e2e`, {
          version: 1,
          title: 'Your changed cover',
          createdAt: new Date().toISOString(),
          documents: [
            {
              documentId: 'mta-schedule-e2e',
              kind: 'schedule',
              name: 'Changed schedule',
              date: day(0),
              file: { sha256: file.sha256, fileName: 'schedule.pdf' },
            },
          ],
        }),
      ).resolves.toMatchObject({ status: 'created' });
    });

    let noticeLink = '';
    await test.step('one email tells her of both, with no amounts, and links to them', async () => {
      const notice = await portal.emails.inbox.next((m) => m.to.includes(customer.email), {
        after: emailsBeforeNotice,
        what: `the document notice to ${customer.email}`,
      });
      expect(notice.text).toContain(customer.firstName);
      expect(notice.text).toMatch(/Billing statement/);
      expect(notice.text).toMatch(/Policy schedule/);
      expect(notice.text).not.toMatch(/£|642|418/);
      expect(notice.text).not.toContain(customer.lastName);
      noticeLink = /https?:\/\/\S+\/account\/bills-and-payments/.exec(notice.text)?.[0] ?? '';
      expect(noticeLink.startsWith(`${portal.url}/account/bills-and-payments`)).toBe(true);
      // One email, not two.
      await page.waitForTimeout(1500);
      expect(
        portal.emails.inbox.messages.slice(emailsBeforeNotice).filter((m) => m.to.includes(customer.email)),
      ).toHaveLength(1);
    });

    await test.step('a text tells her too, with one link and nothing else about her', async () => {
      const text = await portal.texts.inbox.next(
        (m) => nationalNumber(textOf(m).to) === customer.mobile && /new documents/.test(textOf(m).text),
        { after: textsBeforeNotice, what: `the document notice texted to ${customer.mobile}` },
      );
      expect(textOf(text).text).toBe(
        `You have 2 new documents in your online account. Sign in to read them: ${portal.url}/account/dashboard`,
      );
    });

    await test.step('the insurer is told she was told, signed', async () => {
      const delivery = await portal.webhooks.inbox.next(
        (m) => (JSON.parse(m.body) as { type?: string }).type === 'customer.document.notified',
        { after: webhooksBeforeNotice, what: 'a customer.document.notified webhook' },
      );
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(delivery.headers[h])]),
      );
      const event = new Webhook(portal.webhookSecret).verify(delivery.body, headers) as {
        data: { documents: Array<{ documentId: string }> };
      };
      expect(event.data.documents.map((d) => d.documentId).sort()).toEqual([
        'mta-schedule-e2e',
        'statement-e2e',
      ]);
    });

    await test.step('the link leads to the new bill, marked New until she opens it', async () => {
      await page.goto(noticeLink);
      await expect(page).toHaveURL(/\/account\/bills-and-payments$/);
      const row = page.locator('.document-row').filter({ hasText: 'Your statement' });
      await expect(row.locator('.tag', { hasText: 'New' })).toBeVisible();
      // The bill opened before is not new.
      await expect(page.locator('.document-row').filter({ hasText: bill.name }).locator('.tag')).toHaveCount(
        0,
      );
      await expectNoSeriousA11yViolations(page);
      const download = page.waitForEvent('download');
      await row.getByRole('button', { name: /^View PDF Your statement/ }).click();
      await download;
      await expect(row.locator('.tag')).toHaveCount(0);
      await page.goto(at(`/account/policies/documents?id=${homePolicy}`));
      await expect(
        page
          .locator('.document-row')
          .filter({ hasText: 'Changed schedule' })
          .locator('.tag', { hasText: 'New' }),
      ).toBeVisible();
    });

    await test.step('signs out, then signs in with the password and a code', async () => {
      await signOut(page);
      await expect(page).toHaveURL(/\/login$/);
      await expectNoA11yFindingsAtAnyLevel(page);
      const texts = phone(portal);
      await enterCredentials(page, customer.email, customer.password);
      await expect(page).toHaveURL(/\/login\/verify$/);
      await page.getByRole('radio', { name: /^Text message to/ }).check();
      await page.getByRole('button', { name: 'Send code' }).click();
      await completeChallenge(page, texts);
      await expect(signOutButton(page)).toBeVisible();
      await expect(page).toHaveURL(/\/account\/dashboard$/);
      // Seen once, the welcome message is not shown again; the policies are still there.
      await expect(
        policiesSection(page).getByRole('link', { name: new RegExp(`View policy .*${motorPolicy}`) }),
      ).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);
    });
  });
});
