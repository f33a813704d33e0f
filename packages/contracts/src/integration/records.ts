import { z } from 'zod/mini';
import { defineCall, named } from '../call';
import { customerIdValue, isoDate, isoDateTime, money, opaqueId } from '../common';
import { dateOfBirthInput, emailInput, postcodeInput } from '../fields';
import {
  bicycle,
  lineOfBusiness,
  policyHolder,
  policyNumber,
  policyStatus,
  productCode,
  risk,
  valuable,
} from '../policy';
import { integrationResult, integrationWriteErrors, sourceVersion, versionQuery } from './common';

/**
 * The insurer's records the portal shows (docs/integration.md): agencies, customers, policies, quotes and
 * notifications, each upserted by the source's own key and version, and removed with a version. Request
 * bodies are strict (an unknown field is a 400 naming it); the customer-facing response schemas strip, so
 * each object reused here is rebuilt strict.
 */

const strict = <S extends z.core.$ZodLooseShape>(schema: { shape: S }) => z.strictObject(schema.shape);

const label = z.string().check(z.minLength(1), z.maxLength(200));
/** A link the customer follows into another system: https only. */
const httpsUrl = z.url({ protocol: /^https$/ });
/** A UK phone number as the insurer holds it: national digits, no spaces (01632960456, 07700900123). */
const ukPhone = z.string().check(z.regex(/^0\d{9,10}$/, 'Expected UK national digits such as 01632960456'));
const clockTime = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Expected HH:MM'));

const strictMoney = strict(money);

const strictLine = z.strictObject({
  ...lineOfBusiness.shape,
  risks: z.array(z.strictObject({ ...risk.shape, covers: z.array(z.strictObject({ type: label })) })),
  valuables: z.array(z.strictObject({ ...valuable.shape, value: strictMoney })),
  bicycles: z.array(z.strictObject({ ...bicycle.shape, value: strictMoney })),
});

/* Keys ------------------------------------------------------------------------------------------ */

export const agencyKey = opaqueId;
export const customerKey = customerIdValue;
export const policyKey = policyNumber;
export const notificationKey = opaqueId;
/** `${customerId}/${notificationId}`: one customer's copy of a notification. */
export const customerNotificationKey = z
  .string()
  .check(z.regex(/^C\d{7}\/[A-Za-z0-9_-]{1,64}$/, 'Expected customerId/notificationId'));

/* Records --------------------------------------------------------------------------------------- */

export const agencyRecord = named(
  z.strictObject({
    version: sourceVersion,
    name: label,
    url: z.nullable(httpsUrl),
    telephoneNumber: z.string().check(z.minLength(1), z.maxLength(30)),
    /** The office address on one line, parts joined with ", ". */
    address: z.string().check(z.maxLength(300)),
    latitude: z.number().check(z.minimum(-90), z.maximum(90)),
    longitude: z.number().check(z.minimum(-180), z.maximum(180)),
    /** The insurer's own direct line, the fallback for customers without an agency: exactly one. */
    isMutualDirect: z.boolean(),
    /** Opening hours of the direct line (HH:MM, UK time); null for agencies. */
    telephonesOpen: z.nullable(clockTime),
    telephonesClose: z.nullable(clockTime),
  }),
  'IntegrationAgency',
);
export type AgencyRecordInput = z.infer<typeof agencyRecord>;

export const customerRecord = named(
  z.strictObject({
    version: sourceVersion,
    title: z.string().check(z.maxLength(35)),
    firstName: label,
    lastName: label,
    /** YYYY-MM-DD, a real date in the past. */
    dateOfBirth: dateOfBirthInput,
    /** One customer per address; null when the insurer holds none (registration then asks for one). */
    email: z.nullable(emailInput),
    mobileNumber: z.nullable(ukPhone),
    landlineNumber: z.nullable(ukPhone),
    address: z.strictObject({
      lineOne: z.string().check(z.maxLength(100)),
      lineTwo: z.string().check(z.maxLength(100)),
      lineThree: z.string().check(z.maxLength(100)),
      town: z.string().check(z.maxLength(100)),
      county: z.string().check(z.maxLength(100)),
      postCode: postcodeInput,
    }),
    /** The customer's own agency; null: they deal with the insurer directly. Load the agency first. */
    agencyId: z.nullable(opaqueId),
  }),
  'IntegrationCustomer',
);
export type CustomerRecordInput = z.infer<typeof customerRecord>;

/** Links into the insurer's policy system for one policy; null or absent: the portal's configured link. */
const actionUrls = z.strictObject({
  midTermAdjustment: z.nullable(httpsUrl),
  viewRenewal: z.nullable(httpsUrl),
  requestAChange: z.nullable(httpsUrl),
});

export const policyRecord = named(
  z
    .strictObject({
      version: sourceVersion,
      customerId: customerIdValue,
      productType: productCode,
      productName: label,
      apiProductType: label,
      policyType: label,
      status: policyStatus,
      startDate: isoDate,
      renewalDate: isoDate,
      annualPremium: strictMoney,
      paymentFrequency: z.enum(['Annual', 'Monthly']),
      policyHolders: z.array(strict(policyHolder)),
      vehicleReg: z.array(z.string().check(z.minLength(1), z.maxLength(10))),
      linesOfBusiness: z.array(strictLine),
      isMigrationRenewal: z.boolean(),
      allowMTA: z.boolean(),
      onlineViewRenewal: z.boolean(),
      agencyId: z.nullable(opaqueId),
      actionUrls: z.optional(z.nullable(actionUrls)),
    })
    .check(
      z.refine((p) => p.policyHolders.filter((h) => h.primary).length === 1, {
        message: 'Exactly one policy holder must be primary',
        path: ['policyHolders'],
      }),
      z.refine((p) => p.renewalDate >= p.startDate, {
        message: 'The renewal date must not be before the start date',
        path: ['renewalDate'],
      }),
    ),
  'IntegrationPolicy',
);
export type PolicyRecordInput = z.infer<typeof policyRecord>;

/** A document of a quote: its PDF uploaded first (PUT /integration/v1/files), named by its SHA-256. */
const quoteDocumentInput = z.strictObject({
  documentId: opaqueId,
  name: label,
  date: isoDate,
  file: z.strictObject({
    sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'Expected the SHA-256 of the file, 64 hex digits')),
    fileName: z.string().check(z.minLength(1), z.maxLength(200)),
  }),
});

export const quoteRecord = named(
  z.strictObject({
    version: sourceVersion,
    customerId: customerIdValue,
    productType: productCode,
    productName: label,
    startDate: isoDate,
    premium: z.number().check(z.minimum(0)),
    onlineQuoteAndBuy: z.boolean(),
    /** Where "continue your quote" leads; null or absent: the portal's configured policy-system link. */
    quoteAndBuyUrl: z.optional(z.nullable(httpsUrl)),
    /** The quote's documents, replacing those held; absent: those held are kept. */
    documents: z.optional(z.array(quoteDocumentInput)),
  }),
  'IntegrationQuote',
);
export type QuoteRecordInput = z.infer<typeof quoteRecord>;

export const notificationRecord = named(
  z
    .strictObject({
      version: sourceVersion,
      type: z.enum(['WELCOME', 'SPLASH']),
      /** A splash shows from startsAt (inclusive) to endsAt (exclusive); null is open-ended. */
      startsAt: z.nullable(isoDateTime),
      endsAt: z.nullable(isoDateTime),
    })
    .check(
      z.refine((n) => !n.startsAt || !n.endsAt || Date.parse(n.endsAt) > Date.parse(n.startsAt), {
        message: 'endsAt must be after startsAt',
        path: ['endsAt'],
      }),
    ),
  'IntegrationNotification',
);
export type NotificationRecordInput = z.infer<typeof notificationRecord>;

export const customerNotificationRecord = named(
  z.strictObject({ version: sourceVersion }),
  'IntegrationCustomerNotification',
);

/* Calls ----------------------------------------------------------------------------------------- */

const responses = { 200: integrationResult, ...integrationWriteErrors };

function recordCalls<P extends z.ZodMiniType, B extends z.ZodMiniType>(spec: {
  id: string;
  path: string;
  scope: 'customers.write' | 'policies.write' | 'notifications.write';
  params: P;
  body: B;
  put: string;
  remove: string;
}) {
  const common = { service: 'integration', auth: false, clientScope: spec.scope, path: spec.path } as const;
  return {
    put: defineCall({
      ...common,
      id: `integration.${spec.id}.put`,
      summary: spec.put,
      method: 'PUT',
      params: spec.params,
      body: spec.body,
      responses,
    }),
    remove: defineCall({
      ...common,
      id: `integration.${spec.id}.delete`,
      summary: spec.remove,
      method: 'DELETE',
      params: spec.params,
      query: versionQuery,
      responses,
    }),
  };
}

export const agencyCalls = recordCalls({
  id: 'agency',
  path: '/integration/v1/agencies/:agencyId',
  scope: 'policies.write',
  params: z.strictObject({ agencyId: agencyKey }),
  body: agencyRecord,
  put: 'Creates or updates an agency (or the insurer direct line) by its id and version.',
  remove:
    'Removes an agency: its customers and policies fall back to the insurer direct line. The direct line itself cannot be removed (422).',
});

export const customerCalls = recordCalls({
  id: 'customer',
  path: '/integration/v1/customers/:customerId',
  scope: 'customers.write',
  params: z.strictObject({ customerId: customerKey }),
  body: customerRecord,
  put: "Creates or updates a customer's record (never their portal preferences). An agency not held, or an email another customer has, is 422.",
  remove:
    'Erases the customer: their sign-in, sessions and personal data in every area (data protection erasure).',
});

export const policyCalls = recordCalls({
  id: 'policy',
  path: '/integration/v1/policies/:policyNumber',
  scope: 'policies.write',
  params: z.strictObject({ policyNumber: policyKey }),
  body: policyRecord,
  put: 'Creates or updates a policy of a customer held. A customer or agency not held, or a policy held for another customer, is 422.',
  remove: 'Removes a policy and its document packs: the customer no longer sees it.',
});

export const quoteCalls = recordCalls({
  id: 'quote',
  path: '/integration/v1/quotes/:quoteNumber',
  scope: 'policies.write',
  params: z.strictObject({ quoteNumber: policyKey }),
  body: quoteRecord,
  put: 'Creates or updates a quote and its documents (their files uploaded first). A customer or file not held is 422.',
  remove: 'Removes a quote and its documents.',
});

export const notificationCalls = recordCalls({
  id: 'notification',
  path: '/integration/v1/notifications/:notificationId',
  scope: 'notifications.write',
  params: z.strictObject({ notificationId: notificationKey }),
  body: notificationRecord,
  put: 'Creates or updates a welcome or splash notification (what it says comes from content).',
  remove: "Removes a notification, and every customer's copy of it.",
});

export const customerNotificationCalls = recordCalls({
  id: 'customerNotification',
  path: '/integration/v1/customers/:customerId/notifications/:notificationId',
  scope: 'notifications.write',
  params: z.strictObject({ customerId: customerKey, notificationId: notificationKey }),
  body: customerNotificationRecord,
  put: 'Gives the customer a notification (NEW). A newer version keeps its status: a customer who has seen it is not shown it again. Either not held is 422.',
  remove: 'Withdraws the notification from the customer.',
});
