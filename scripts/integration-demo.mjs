/* global process, console, fetch, Buffer, URLSearchParams */
/**
 * `npm run integration:demo`: plays the insurer's systems against a running portal (npm start in another
 * terminal) with the demo integration client: uploads a bill as a PDF, bulk-loads three sample customers
 * with two policies each, a billing account with that bill for the first, and a welcome notification,
 * then prints each line's result, how to register as the first customer, and the events feed.
 *
 * Options: --url URL (default http://localhost:3000). The client: INTEGRATION_CLIENT_ID and
 * INTEGRATION_CLIENT_SECRET (default the demo client every non-production portal has when
 * INTEGRATION_CLIENTS is unset; see the README).
 */
import { createRequire } from 'node:module';
import { sampleCustomer, sampleLines } from './integration-sample.mjs';

const require = createRequire(import.meta.url);
const urlArg = process.argv.indexOf('--url');
const base = (
  urlArg === -1 ? (process.env.PORTAL_URL ?? 'http://localhost:3000') : process.argv[urlArg + 1]
).replace(/\/+$/, '');
const clientId = process.env.INTEGRATION_CLIENT_ID ?? 'demo-system';
const secret = process.env.INTEGRATION_CLIENT_SECRET ?? 'demo-system-secret-not-for-production';
const scopes = [
  'customers.write',
  'policies.write',
  'documents.write',
  'billing.write',
  'notifications.write',
  'events.read',
];

async function call(path, init = {}) {
  const res = await fetch(`${base}${path}`, init);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${await res.text()}`);
  return res;
}

/** A one-page bill, as the insurer's document production would send it. */
function billPdf(customer) {
  const PDFDocument = require('pdfkit');
  const doc = new PDFDocument({ size: 'A4', info: { Title: 'Your bill' } });
  const chunks = [];
  doc.on('data', (c) => chunks.push(c));
  const done = new Promise((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fontSize(20).text('Meridian Mutual: your bill');
  doc.moveDown().fontSize(12).text(`${customer.title} ${customer.firstName} ${customer.lastName}`);
  doc.text('Home Insurance 800X0000001: £300.50 due on renewal.');
  doc.text('This PDF was made by the insurer and loaded through the integration API.');
  doc.end();
  return done;
}

async function main() {
  const today = new Date();
  const version = Date.now();
  const token = (
    await (
      await call('/oauth2/default/v1/token', {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' ') }),
      })
    ).json()
  ).access_token;
  const auth = { authorization: `Bearer ${token}` };
  console.log(`Signed in as the integration client ${clientId} at ${base}.`);

  const first = sampleCustomer(1, today);
  const pdf = await billPdf(first);
  const file = await (
    await call('/integration/v1/files', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/pdf' },
      body: pdf,
    })
  ).json();
  console.log(`Uploaded a bill: ${file.size} bytes, sha256 ${file.sha256}.`);

  const lines = [
    ...sampleLines({ from: 1, to: 3, version, today }),
    JSON.stringify({
      type: 'billingAccount',
      key: 'SAMPLE80000011',
      record: {
        version,
        customerId: first.customerId,
        paymentMethod: 'Annual',
        collectionDay: null,
        bankAccountEnding: null,
        policyNumbers: ['800X0000001'],
      },
    }),
    JSON.stringify({
      type: 'billingDocument',
      key: 'SAMPLE80000011/sample-bill-1',
      record: {
        version,
        kind: 'annual_bill',
        name: 'Your bill for Home Insurance',
        date: today.toISOString().slice(0, 10),
        policyNumber: '800X0000001',
        file: { sha256: file.sha256, fileName: 'Your bill 800X0000001.pdf' },
      },
    }),
    JSON.stringify({
      type: 'notification',
      key: 'sample-welcome',
      record: { version, type: 'WELCOME', startsAt: null, endsAt: null },
    }),
    JSON.stringify({
      type: 'customerNotification',
      key: `${first.customerId}/sample-welcome`,
      record: { version },
    }),
  ];
  const res = await call('/integration/v1/bulk', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/x-ndjson' },
    body: `${lines.join('\n')}\n`,
  });
  console.log('\nBulk load, one result a line:');
  for (const line of (await res.text()).trim().split('\n')) console.log(`  ${line}`);

  const dob = first.dateOfBirth.split('-').reverse().join('/');
  console.log(
    `\nRegister as the first sample customer at ${base}/register with ${first.email}, date of birth ${dob}` +
      ` and postcode ${first.address.postCode} (the code goes to ${first.mobileNumber}: read it at ${base}/dev/outbox).` +
      '\nThey see two policies, the bill in Bills and payments (the exact PDF uploaded) and a welcome message.',
  );
  const feed = await (await call('/integration/v1/events?limit=5', { headers: auth })).json();
  console.log(
    `\nThe events feed (customers' changes out) has ${feed.events.length} event(s) from the start; read more with ?after=${feed.next}.`,
  );
}

main().catch((error) => {
  console.error(`integration:demo failed: ${error.message}`);
  console.error(
    'Is the portal running (npm start) with its demo integration client (no INTEGRATION_CLIENTS set)?',
  );
  process.exit(1);
});
