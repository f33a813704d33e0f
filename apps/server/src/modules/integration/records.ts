import {
  agencyKey,
  agencyRecord,
  customerKey,
  customerNotificationKey,
  customerNotificationRecord,
  customerRecord,
  notificationKey,
  notificationRecord,
  policyKey,
  policyRecord,
  quoteRecord,
} from '@portal/contracts/integration/records';
import type { SourceVersion } from '@portal/contracts/integration/common';
import type { Queryable } from '../../platform/db';
import { HttpError } from '../../platform/errors';
import type { IntegrationContext } from './context';
import type { BulkSet, IntegrationResource } from './service';

/** 422: the record names one the portal does not hold; the message says what to load first. */
function notHeld(field: string, what: string): HttpError {
  return new HttpError(422, 'REFERENCE_NOT_HELD', `${what} is not held: load it first.`, {
    [field]: `${what} is not held`,
  });
}

// Each resource's record type is its own; the service holds them side by side.
const resource = <R extends { version: SourceVersion }>(r: IntegrationResource<R>) =>
  r as unknown as IntegrationResource;

/**
 * The insurer's records the customer sees: agencies, customers, policies, quotes, notifications and a
 * customer's notifications. Each writes through the account and policy modules' services in the
 * integration service's transaction (services are read at call time: they are all built by then).
 */
export function recordResources(ctx: IntegrationContext): IntegrationResource[] {
  const s = ctx.services;
  const requireCustomer = async (tx: Queryable, customerId: string) => {
    if (!(await s.customers.held(tx, customerId))) throw notHeld('customerId', `Customer ${customerId}`);
  };
  const requireAgency = async (tx: Queryable, agencyId: string | null) => {
    if (agencyId !== null && !(await s.policies.agencyHeld(tx, agencyId))) {
      throw notHeld('agencyId', `Agency ${agencyId}`);
    }
  };
  /** The items refused for a customer or agency not held (or, for a customer, created on a later line). */
  const references = async (
    tx: Queryable,
    items: ReadonlyArray<{ record: { customerId?: string; agencyId: string | null }; line: number }>,
    set: BulkSet,
  ): Promise<Array<HttpError | undefined>> => {
    const customerIds = items.flatMap((i) =>
      i.record.customerId === undefined ? [] : [i.record.customerId],
    );
    const agencyIds = items.flatMap((i) => (i.record.agencyId === null ? [] : [i.record.agencyId]));
    const customers = await s.customers.heldIds(tx, customerIds);
    const agencies = await s.policies.agenciesHeld(tx, agencyIds);
    return items.map(({ record: { customerId, agencyId }, line }) => {
      if (
        customerId !== undefined &&
        (!customers.has(customerId) || set.createdAfter('customer', customerId, line))
      ) {
        return notHeld('customerId', `Customer ${customerId}`);
      }
      if (agencyId !== null && !agencies.has(agencyId)) return notHeld('agencyId', `Agency ${agencyId}`);
      return undefined;
    });
  };
  /** Each item's refusal: the first of the lists that refuses it. */
  const firstRefusal = (...lists: Array<Array<HttpError | undefined>>) =>
    lists[0]!.map((_, i) => lists.map((l) => l[i]).find((e) => e !== undefined));
  const splitAssignment = (key: string) => {
    const [customerId = '', notificationId = ''] = key.split('/');
    return { customerId, notificationId };
  };

  return [
    resource({
      type: 'agency',
      scope: 'policies.write',
      key: agencyKey,
      record: agencyRecord,
      customerOf: async () => null,
      upsert: (tx, key, record) => s.policies.upsertAgency(tx, key, record),
      remove: async (tx, key) => ((await s.policies.removeAgency(tx, key)) ? { customerId: null } : null),
    }),
    resource({
      type: 'customer',
      scope: 'customers.write',
      key: customerKey,
      record: customerRecord,
      customerOf: async (_tx, key) => key,
      async upsert(tx, key, record) {
        await requireAgency(tx, record.agencyId);
        await s.customers.upsertRecord(tx, key, record);
        await s.policies.setCustomerAgency(tx, key, record.agencyId);
      },
      async upsertMany(tx, items, set) {
        const refs = await references(tx, items, set);
        const checked = items.filter((_, i) => refs[i] === undefined);
        const written = await s.customers.upsertRecords(
          tx,
          checked.map((i) => ({ customerId: i.key, record: i.record })),
        );
        const ok = checked.filter((_, i) => written[i] === undefined);
        await s.policies.setCustomerAgencies(
          tx,
          ok.map((i) => ({ customerId: i.key, agencyId: i.record.agencyId })),
        );
        const byLine = new Map(checked.map((item, i) => [item.line, written[i]]));
        return firstRefusal(
          refs,
          items.map((i) => byLine.get(i.line)),
        );
      },
      // A data protection erasure: every module's, in this transaction (decision 020).
      remove: async (tx, key) => ((await s.erasure.eraseCustomer(tx, key)) ? { customerId: key } : null),
    }),
    resource({
      type: 'policy',
      scope: 'policies.write',
      key: policyKey,
      record: policyRecord,
      customerOf: async (_tx, _key, record) => record.customerId,
      async upsert(tx, key, record) {
        await requireCustomer(tx, record.customerId);
        await requireAgency(tx, record.agencyId);
        await s.policies.upsertPolicy(tx, key, record, ctx.clock.now());
      },
      async upsertMany(tx, items, set) {
        const refs = await references(tx, items, set);
        const checked = items.filter((_, i) => refs[i] === undefined);
        const written = await s.policies.upsertPolicies(
          tx,
          checked.map((i) => ({ policyNumber: i.key, record: i.record })),
          ctx.clock.now(),
        );
        const byLine = new Map(checked.map((item, i) => [item.line, written[i]]));
        return firstRefusal(
          refs,
          items.map((i) => byLine.get(i.line)),
        );
      },
      async remove(tx, key) {
        const customerId = await s.policies.removePolicy(tx, key);
        return customerId === null ? null : { customerId };
      },
    }),
    resource({
      type: 'quote',
      scope: 'policies.write',
      key: policyKey,
      record: quoteRecord,
      customerOf: async (_tx, _key, record) => record.customerId,
      async upsert(tx, key, record) {
        await requireCustomer(tx, record.customerId);
        await s.policies.upsertQuote(tx, key, record);
        if (record.documents !== undefined) {
          await s.documents.replaceQuoteDocuments(tx, record.customerId, key, record.documents);
        }
      },
      async remove(tx, key) {
        const customerId = await s.policies.removeQuote(tx, key);
        return customerId === null ? null : { customerId };
      },
    }),
    resource({
      type: 'notification',
      scope: 'notifications.write',
      key: notificationKey,
      record: notificationRecord,
      customerOf: async () => null,
      upsert: (tx, key, record) => s.customers.upsertNotification(tx, key, record),
      remove: async (tx, key) =>
        (await s.customers.removeNotification(tx, key)) ? { customerId: null } : null,
    }),
    resource({
      type: 'customerNotification',
      scope: 'notifications.write',
      key: customerNotificationKey,
      record: customerNotificationRecord,
      customerOf: async (_tx, key) => splitAssignment(key).customerId,
      async upsert(tx, key) {
        const { customerId, notificationId } = splitAssignment(key);
        await s.customers.assignNotification(tx, customerId, notificationId);
      },
      async remove(tx, key) {
        const { customerId, notificationId } = splitAssignment(key);
        return (await s.customers.withdrawNotification(tx, customerId, notificationId))
          ? { customerId }
          : null;
      },
    }),
  ];
}
