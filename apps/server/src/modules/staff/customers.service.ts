import type { StaffCustomerView, StaffSearchQuery, StaffSearchResponse } from '@portal/contracts/staff';
import { customerAuditPage, lastServerEventAt, writeAudit, writeAuditRows } from '../../platform/audit';
import { counterStore } from '../../platform/counters';
import { badRequest, HttpError, notFound } from '../../platform/errors';
import { metricsOf } from '../../platform/metrics';
import type { NotifyLog } from '../../platform/notifier';
import type { StaffMember } from '../../platform/staff-guard';
import type { RequestMeta } from '../identity';
import type { StaffContext } from './context';

/*
 * The contact centre finds and helps a customer (issue 41 points 2-5). Every call carries the staff member
 * and their reason (a ticket or call reference): searches and opened records are audited here, with the
 * staff member in `on_behalf_of` (staff:<subject>); actions go down the customer's own code paths in the
 * modules below, whose audit rows then name the staff member and the reason, whose emails go as for the
 * customer's own change, and which the customer's account activity shows in plain words. Nothing here
 * logs a searched value, a reason or any other personal detail.
 */

/**
 * The window of the searches a staff member may make (STAFF_SEARCHES_PER_10_MINUTES of them), on every
 * instance (the shared counters).
 */
const SEARCH_WINDOW_MS = 10 * 60_000;
/** At most this many customers found by one search. */
const MAX_RESULTS = 10;
/** Entries of the audit trail a page. */
const TRAIL_PAGE = 50;
/** Items of the customer's own account activity in the view. */
const ACTIVITY_ITEMS = 20;

/** One console call: who, why, and the request's ids for the audit rows and the notifier's log lines. */
export interface StaffCall {
  staff: StaffMember;
  reason: string;
  correlationId: string;
  log: NotifyLog;
}

const actorOf = (call: StaffCall) => `staff:${call.staff.subject}`;

/** What the modules below take: the request's ids, and the staff member with their reason. */
const metaOf = (call: StaffCall): RequestMeta => ({
  correlationId: call.correlationId,
  sessionId: call.staff.sessionId,
  log: call.log,
  agent: { onBehalfOf: actorOf(call), reason: call.reason },
});

const refused = (code: string, message: string) => new HttpError(409, code, message);
const unknownCustomer = () => notFound('No customer with that id.');

/** "Mrs Margaret Thompson": the name as held, with its title. */
const fullName = (c: { title: string; firstName: string; lastName: string }) =>
  [c.title, c.firstName, c.lastName].filter((part) => part.trim() !== '').join(' ');

/** "HR8 2": the outward code and the first character of the inward, enough to tell namesakes apart. */
function postcodeStart(postCode: string): string | null {
  const key = postCode.replace(/\s/g, '').toUpperCase();
  return key.length >= 5 ? `${key.slice(0, -3)} ${key.slice(-3, -2)}` : null;
}

const words = (browser: string | null, os: string | null) =>
  browser && os ? `${browser} on ${os}` : (browser ?? os);

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/* The audit trail's cursor: base64url of "<occurred_at in microseconds, UTC>|<id>", checked when read. */

const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const encodeCursor = (row: { atExact: string; rowId: string }) =>
  Buffer.from(`${row.atExact}|${row.rowId}`, 'utf8').toString('base64url');

function decodeCursor(cursor: string): { at: string; id: string } {
  const refuse = () =>
    badRequest('That is not a page of this trail.', { cursor: 'Not a cursor from this trail' });
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw refuse();
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !at || !id || !CURSOR_AT.test(at) || !/^[1-9]\d{0,17}$/.test(id)) throw refuse();
  if (Number.isNaN(Date.parse(at))) throw refuse();
  return { at, id };
}

export function createStaffCustomers(ctx: StaffContext) {
  const s = () => ctx.services;

  const audit = (
    call: StaffCall,
    eventId: string,
    customerId: string | null,
    details: Record<string, unknown>,
    failure?: string,
  ) =>
    writeAudit(ctx.db, {
      source: 'server',
      eventId,
      customerId,
      onBehalfOf: actorOf(call),
      sessionId: call.staff.sessionId,
      correlationId: call.correlationId,
      isSuccess: failure === undefined,
      failureReason: failure ?? null,
      occurredAt: ctx.clock.now(),
      details: { reason: call.reason, ...details },
    });

  /** The record, or 404: an id that is not held says nothing more. */
  async function recordOf(customerId: string) {
    const [record] = await s().customers.findForStaff({ by: 'ids', customerIds: [customerId] }, 1);
    if (!record) throw unknownCustomer();
    return record;
  }

  /** The customers a search finds (at most MAX_RESULTS), by customer id. */
  async function find(query: StaffSearchQuery) {
    const { customers } = s();
    switch (query.by) {
      case 'customerId':
        return customers.findForStaff({ by: 'ids', customerIds: [query.customerId] }, MAX_RESULTS);
      case 'email': {
        // The record's address, or the one the online account signs in with (a registration not finished
        // may not have put it on the record yet).
        const [byRecord, byLogin] = await Promise.all([
          customers.findForStaff({ by: 'email', email: query.email }, MAX_RESULTS),
          s().identity.customerIdOfLogin(query.email),
        ]);
        const customerIds = [...byRecord.map((c) => c.customerId), ...(byLogin ? [byLogin] : [])];
        return customers.findForStaff({ by: 'ids', customerIds }, MAX_RESULTS);
      }
      case 'policyNumber': {
        const policy = await s().policies.findByNumber(query.policyNumber);
        return policy
          ? customers.findForStaff({ by: 'ids', customerIds: [policy.customerId] }, MAX_RESULTS)
          : [];
      }
      case 'nameAndBirth':
        // A real date (the contract's check), and not a future one (the service's clock).
        if (query.dateOfBirth > ctx.clock.now().toISOString().slice(0, 10)) {
          throw badRequest('The request body is not valid.', {
            'query.dateOfBirth': 'Date of birth must be in the past',
          });
        }
        return customers.findForStaff(
          {
            by: 'nameAndBirth',
            surname: query.surname,
            dateOfBirth: query.dateOfBirth,
            postcode: query.postcode,
          },
          MAX_RESULTS,
        );
    }
  }

  /** A customer's state at a glance (issue 41 point 4), or null when the customer is not held. */
  async function view(customerId: string): Promise<StaffCustomerView | null> {
    const [record] = await s().customers.findForStaff({ by: 'ids', customerIds: [customerId] }, 1);
    if (!record) return null;
    const { identity, oidc, customers, policies, portal } = s();
    const account = await identity.accountForStaff(customerId);
    const [latest, sessions, choices, policyList, activity, closedAt] = await Promise.all([
      oidc.signInSessions.latestBrowser(customerId),
      oidc.signInSessions.list(customerId, ctx.clock.now()),
      customers.choicesOf(customerId),
      policies.list(customerId, 1),
      portal.recentActivity(customerId, ACTIVITY_ITEMS),
      account ? null : lastServerEventAt(ctx.db, customerId, 'account.closed'),
    ]);
    const state =
      account?.status === 'ACTIVE'
        ? 'active'
        : account?.status === 'PROVISIONED'
          ? 'pending'
          : account || closedAt
            ? 'closed'
            : 'none';
    return {
      customerId,
      name: fullName(record),
      dateOfBirth: record.dateOfBirth,
      postcode: record.postCode || null,
      email: record.email,
      mobile: record.mobileNumber,
      landline: record.landlineNumber,
      registration: { state, activationSentAt: iso(account?.activationSentAt ?? null) },
      signIn: {
        locked: Boolean(account?.lockedUntil),
        lockedUntil: iso(account?.lockedUntil ?? null),
        lastSignInAt: iso(account?.lastSignInAt ?? null),
        lastSignInDevice: latest ? words(latest.browser, latest.os) : null,
      },
      factors: (account?.factors ?? []).map((f) => ({
        kind: f.kind,
        ...(f.destination ? { destination: f.destination } : {}),
        count: f.count,
        addedAt: iso(f.addedAt),
      })),
      sessions: sessions.map((r) => ({
        id: r.id,
        browser: words(r.browser, r.os),
        signedInAt: r.startedAt.toISOString(),
        lastActiveAt: r.lastUsedAt.toISOString(),
      })),
      preferences: { paperless: choices.paperless, marketing: choices.marketing },
      policies: [
        ...policyList.active,
        ...policyList.renewing,
        ...policyList.upcoming,
        ...policyList.expired,
      ].map((p) => ({
        policyNumber: p.policyNumber,
        product: p.productName,
        status: p.status,
        renewalDate: p.renewalDate || null,
      })),
      activity,
    };
  }

  /** An action's answer: done, and the record as it is now. */
  async function done(customerId: string) {
    const customer = await view(customerId);
    if (!customer) throw unknownCustomer();
    return { done: true, customer };
  }

  /** A refused action is audited too (what was asked, and why it did not apply), then answered 409. */
  async function refuse(
    call: StaffCall,
    customerId: string,
    action: string,
    error: HttpError,
  ): Promise<never> {
    await audit(call, 'staff.customer.action.refused', customerId, { action }, error.code);
    throw error;
  }

  return {
    async search(call: StaffCall, query: StaffSearchQuery): Promise<StaffSearchResponse> {
      const decision = await (
        await counterStore(ctx)
      ).take(`staff-search:${call.staff.subject}`, ctx.config.staff.searchLimit, SEARCH_WINDOW_MS);
      if (!decision.allowed) {
        await audit(call, 'staff.customer.search', null, { kind: query.by }, 'RATE_LIMITED');
        throw new HttpError(
          429,
          'TOO_MANY_REQUESTS',
          'Too many searches. Please wait and try again.',
          undefined,
          { 'Retry-After': String(decision.retryAfterSeconds) },
        );
      }
      const found = await find(query);
      const accounts = await Promise.all(found.map((c) => s().identity.getUserByCustomerId(c.customerId)));
      metricsOf(ctx).staffSearches.inc({ kind: query.by });
      // One row per customer found (their trail shows who looked them up, and why), or one when none was;
      // the kind of search and how many it found, never the searched values.
      const details = { reason: call.reason, kind: query.by, count: found.length };
      const rows = (found.length === 0 ? [null] : found.map((c) => c.customerId)).map((customerId) => ({
        source: 'server' as const,
        eventId: 'staff.customer.search',
        customerId,
        onBehalfOf: actorOf(call),
        sessionId: call.staff.sessionId,
        correlationId: call.correlationId,
        isSuccess: true,
        occurredAt: ctx.clock.now(),
        details,
      }));
      await writeAuditRows(ctx.db, rows);
      return {
        results: found.map((c, i) => ({
          customerId: c.customerId,
          name: fullName(c),
          postcodeStart: postcodeStart(c.postCode),
          onlineAccount:
            accounts[i]?.status === 'ACTIVE'
              ? 'active'
              : accounts[i]?.status === 'PROVISIONED'
                ? 'pending'
                : 'none',
        })),
      };
    },

    async open(call: StaffCall, customerId: string): Promise<StaffCustomerView> {
      const customer = await view(customerId);
      if (!customer) throw unknownCustomer();
      await audit(call, 'staff.customer.opened', customerId, {});
      return customer;
    },

    async resendActivation(call: StaffCall, customerId: string) {
      await recordOf(customerId);
      const outcome = await s().registration.resendActivation(customerId, metaOf(call));
      if (outcome === 'not-pending')
        await refuse(
          call,
          customerId,
          'resendActivation',
          refused('NOT_PENDING_ACTIVATION', 'This customer has no online account waiting to be activated.'),
        );
      if (outcome === 'no-phone')
        await refuse(
          call,
          customerId,
          'resendActivation',
          refused('NO_PHONE_NUMBER', 'The record has no phone number for security codes: update it first.'),
        );
      return done(customerId);
    },

    async unlock(call: StaffCall, customerId: string) {
      await recordOf(customerId);
      const outcome = await s().identity.unlockForCustomer(customerId, metaOf(call));
      if (outcome !== 'unlocked')
        await refuse(
          call,
          customerId,
          'unlock',
          outcome === 'no-account'
            ? refused('NO_ONLINE_ACCOUNT', 'This customer has no online account to unlock.')
            : refused('NOT_LOCKED', 'This customer’s sign-in is not locked.'),
        );
      return done(customerId);
    },

    async endSessions(call: StaffCall, customerId: string) {
      await recordOf(customerId);
      const { ended } = await s().portal.endAllSessions(customerId, metaOf(call));
      if (ended === 0)
        await refuse(
          call,
          customerId,
          'endSessions',
          refused('NO_SESSIONS', 'This customer is not signed in anywhere.'),
        );
      return done(customerId);
    },

    /**
     * See what the customer sees (issue 41 point 6): with the code the customer reads out (unless codes
     * are off), a one-time link to their portal, read only. The portal module checks the code and audits.
     */
    async sharedView(call: StaffCall, customerId: string, code: string | undefined) {
      await recordOf(customerId);
      return s().portal.startSharedView(
        {
          subject: call.staff.subject,
          name: call.staff.name,
          sessionId: call.staff.sessionId,
          reason: call.reason,
          correlationId: call.correlationId,
        },
        customerId,
        code,
      );
    },

    async removeFactors(
      call: StaffCall,
      customerId: string,
      kinds: ReadonlyArray<'authenticator-app' | 'passkeys' | 'backup-codes'>,
    ) {
      await recordOf(customerId);
      const { removed } = await s().identity.removeFactorsForCustomer(customerId, kinds, metaOf(call));
      if (removed === 0)
        await refuse(
          call,
          customerId,
          'removeFactors',
          refused('NOTHING_TO_REMOVE', 'This customer has none of those to remove.'),
        );
      return done(customerId);
    },

    async changeEmail(call: StaffCall, customerId: string, email: string) {
      await recordOf(customerId);
      const outcome = await s().portal.changeEmail(customerId, email, metaOf(call));
      if (outcome !== 'changed')
        await refuse(
          call,
          customerId,
          'changeEmail',
          outcome === 'no-account'
            ? refused(
                'NO_ONLINE_ACCOUNT',
                'This customer has no online account: change the email in the policy system.',
              )
            : outcome === 'same'
              ? refused('SAME_EMAIL', 'That is already the customer’s email address.')
              : refused('EMAIL_IN_USE', 'Another customer or account has that email address.'),
        );
      return done(customerId);
    },

    async auditTrail(call: StaffCall, customerId: string, cursor: string | undefined) {
      const before = cursor === undefined ? undefined : decodeCursor(cursor);
      const record = await recordOf(customerId);
      const rows = await customerAuditPage(ctx.db, customerId, TRAIL_PAGE + 1, before);
      const page = rows.slice(0, TRAIL_PAGE);
      await audit(call, 'staff.customer.trail.read', customerId, {
        page: before ? 'older' : 'newest',
        entries: page.length,
      });
      return {
        customerId,
        name: fullName(record),
        entries: page.map((r) => ({
          at: r.occurredAt.toISOString(),
          eventId: r.eventId,
          source: r.source,
          isSuccess: r.isSuccess,
          failureReason: r.failureReason,
          onBehalfOf: r.onBehalfOf,
          details: r.details,
        })),
        nextCursor: rows.length > TRAIL_PAGE ? encodeCursor(page[page.length - 1]!) : null,
      };
    },
  };
}
export type StaffCustomers = ReturnType<typeof createStaffCustomers>;
