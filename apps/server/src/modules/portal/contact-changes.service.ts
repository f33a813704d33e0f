import { recordCustomerEvent } from '../../platform/customer-events';
import type { ContactCodeSent } from '@portal/contracts/contact-changes';
import { writeAudit } from '../../platform/audit';
import type { AuthenticatedCustomer } from '../../platform/auth-guard';
import { HttpError, badRequest } from '../../platform/errors';
import type { Queryable } from '../../platform/db';
import type { PortalContext } from './context';
import { maskRecipient, notifier, type OutboundMessage } from '../../platform/notifier';
import type { RequestMeta } from '../identity';
import { accountClosedEmail, CALL_US, emailChangedEmail, mobileChangedEmail, ukTime } from './account-emails';

/** Who asks, and the request's ids for the audit rows and log lines. */
export interface ContactCaller {
  customer: AuthenticatedCustomer;
  meta: RequestMeta;
}

const codeRefused = (reason: string) => new HttpError(400, 'MFA_CODE_INVALID', reason);

/**
 * The audit row of a confirmed change, in its transaction: the old and new values masked, never whole.
 * Made by the customer (`onBehalfOf` from their token) or, with `meta.agent`, by the contact centre.
 */
function auditChange(
  tx: Queryable,
  who: { customerId: string; onBehalfOf: string | null; meta: RequestMeta },
  eventId: 'profile.email.changed' | 'profile.mobile.changed',
  change: { previous: string | null; value: string; at: Date },
  extra: Record<string, unknown> = {},
) {
  const { customerId, onBehalfOf, meta } = who;
  return writeAudit(tx, {
    source: 'server',
    eventId,
    customerId,
    onBehalfOf: meta.agent?.onBehalfOf ?? onBehalfOf,
    sessionId: meta.sessionId ?? null,
    correlationId: meta.correlationId ?? null,
    isSuccess: true,
    occurredAt: change.at,
    details: {
      from: change.previous ? maskRecipient(change.previous) : null,
      to: maskRecipient(change.value),
      ...extra,
      ...(meta.agent ? { reason: meta.agent.reason } : {}),
    },
  });
}

/**
 * Issue 26 points 1, 2 and 6 (decision 026): changing the email address and the mobile number, each
 * confirmed by a code sent to the new one, and closing the online account with a step-up code. The
 * identity service holds the codes and the sign-in; this service adds the customer record's change, the
 * audit rows and the customers' change events in the same transaction, and tells the customer afterwards
 * (the old address or number, or the closing's confirmation). The step-up check is the routes'.
 */
export function createContactChangesService(ctx: PortalContext) {
  const identity = () => ctx.services.identity;
  const siteName = async () => {
    try {
      return (await ctx.services.content.getSiteSettings()).siteName;
    } catch {
      return 'your insurer';
    }
  };
  /** Queued after the change has committed: a failed notice is logged by the notifier and undoes nothing. */
  const tell = (message: OutboundMessage, meta: RequestMeta) =>
    notifier(ctx)
      .enqueue(message, { log: meta.log })
      .catch(() => undefined);

  return {
    async startEmailChange(
      { customer, meta }: ContactCaller,
      body: { emailAddress: string; confirmEmailAddress: string },
    ): Promise<ContactCodeSent> {
      const email = body.emailAddress.trim().toLowerCase();
      if (email !== body.confirmEmailAddress.trim().toLowerCase()) {
        throw badRequest('The email addresses do not match.', {
          confirmEmailAddress: 'The email addresses do not match. Type the same address twice',
        });
      }
      // Another customer's record with that address: the identity module sends it a notice, not a code.
      const takenByAnotherCustomer = await ctx.services.customers.emailTakenByOther(
        customer.customerId,
        email.trim().toLowerCase(),
      );
      const sent = await identity().startContactChange(
        customer.customerId,
        { kind: 'email', value: email, takenByAnotherCustomer },
        meta,
      );
      return { sent: true, expiresAt: sent.expiresAt.toISOString(), codeLength: 6 };
    },

    async confirmEmailChange({ customer, meta }: ContactCaller, passCode: string) {
      const record = await ctx.services.customers.get(customer.customerId);
      const outcome = await identity().confirmContactChange(
        customer.customerId,
        'email',
        passCode,
        async (tx, change) => {
          // 409 EMAIL_IN_USE when another customer's record took the address meanwhile: undoes it all.
          await ctx.services.customers.setEmail(customer.customerId, change.value, tx);
          await auditChange(
            tx,
            { customerId: customer.customerId, onBehalfOf: customer.onBehalfOf, meta },
            'profile.email.changed',
            change,
          );
          await recordCustomerEvent(ctx, tx, {
            type: 'customer.email.changed',
            customerId: customer.customerId,
            occurredAt: change.at,
            data: { email: change.value, previous: record?.email ?? change.previous },
          });
        },
        meta,
      );
      if (!outcome.ok) {
        if (outcome.refused === 'in-use') {
          throw new HttpError(409, 'EMAIL_IN_USE', 'That email address is already used by another account.');
        }
        throw codeRefused(outcome.reason);
      }
      const old = record?.email ?? outcome.previous;
      if (old && old !== outcome.value) {
        await tell(
          emailChangedEmail(
            { to: old, customerId: customer.customerId, firstName: record?.firstName ?? null },
            { siteName: await siteName(), at: outcome.at, newEmail: outcome.value },
          ),
          meta,
        );
      }
      return { emailAddress: outcome.value };
    },

    /**
     * The contact centre changes the email address for the customer (issue 41 point 5), with no code: the
     * senior agent checked who they spoke to. The sign-in name and the record change together, audited
     * (`profile.email.changed`, naming `meta.agent`) and told to the insurer as the customer's own change
     * is; then both addresses are emailed the change, so the owner of either can say it was not them.
     */
    async changeEmailFor(
      customerId: string,
      address: string,
      meta: RequestMeta,
    ): Promise<'changed' | 'no-account' | 'same' | 'in-use'> {
      const email = address.trim().toLowerCase();
      const record = await ctx.services.customers.get(customerId);
      if (!record) return 'no-account';
      if (record.email?.toLowerCase() === email) return 'same';
      if (await ctx.services.customers.emailTakenByOther(customerId, email)) return 'in-use';
      let outcome;
      try {
        outcome = await identity().changeLoginForCustomer(customerId, email, async (tx, change) => {
          await ctx.services.customers.setEmail(customerId, change.value, tx);
          await auditChange(tx, { customerId, onBehalfOf: null, meta }, 'profile.email.changed', change);
          await recordCustomerEvent(ctx, tx, {
            type: 'customer.email.changed',
            customerId,
            occurredAt: change.at,
            data: { email: change.value, previous: record.email ?? change.previous },
          });
        });
      } catch (error) {
        // Another customer's record took the address meanwhile: undone, as for the customer's own change.
        if (error instanceof HttpError && error.statusCode === 409) return 'in-use';
        throw error;
      }
      if (!outcome.ok) return outcome.refused;
      const site = await siteName();
      const old = record.email ?? outcome.previous;
      for (const to of new Set([old, outcome.value])) {
        await tell(
          emailChangedEmail(
            { to, customerId, firstName: record.firstName },
            { siteName: site, at: outcome.at, newEmail: outcome.value },
          ),
          meta,
        );
      }
      return 'changed';
    },

    async startMobileChange(
      { customer, meta }: ContactCaller,
      mobileNumber: string,
    ): Promise<ContactCodeSent> {
      const sent = await identity().startContactChange(
        customer.customerId,
        { kind: 'mobile', value: mobileNumber },
        meta,
      );
      return { sent: true, expiresAt: sent.expiresAt.toISOString(), codeLength: 6 };
    },

    async confirmMobileChange({ customer, meta }: ContactCaller, passCode: string) {
      const record = await ctx.services.customers.get(customer.customerId);
      const outcome = await identity().confirmContactChange(
        customer.customerId,
        'mobile',
        passCode,
        async (tx, change) => {
          await ctx.services.customers.setMobile(customer.customerId, change.value, tx);
          await auditChange(
            tx,
            { customerId: customer.customerId, onBehalfOf: customer.onBehalfOf, meta },
            'profile.mobile.changed',
            change,
            { added: change.previous === null },
          );
          await recordCustomerEvent(ctx, tx, {
            type: 'customer.mobile.changed',
            customerId: customer.customerId,
            occurredAt: change.at,
            data: { mobileNumber: change.value, previous: record?.mobileNumber ?? change.previous },
          });
        },
        meta,
      );
      if (!outcome.ok) throw codeRefused(outcome.reason);
      const site = await siteName();
      const when = ukTime(outcome.at);
      const old = outcome.previous ?? record?.mobileNumber ?? null;
      if (old) {
        await tell(
          {
            channel: 'sms',
            to: old,
            kind: 'mobile-changed',
            customerId: customer.customerId,
            text: `Your mobile number on your ${site} account was changed on ${when}. If this was not you, ${CALL_US}.`,
          },
          meta,
        );
      }
      if (record?.email) {
        await tell(
          mobileChangedEmail(
            { to: record.email, customerId: customer.customerId, firstName: record.firstName },
            { siteName: site, at: outcome.at, newNumber: outcome.value, replaced: Boolean(old) },
          ),
          meta,
        );
      }
      return { mobileNumber: outcome.value };
    },

    async close({ customer, meta }: ContactCaller, passCode: string): Promise<{ closed: true }> {
      const record = await ctx.services.customers.get(customer.customerId);
      const outcome = await identity().closeAccount(
        customer.customerId,
        passCode,
        async (tx, account) => {
          // Every session, grant and token, this browser's too: its access tokens stop at once.
          const ended = await ctx.services.oidc.signInSessions.endOthers(tx, account.userId, null);
          await tx.query('DELETE FROM portal_reauthentication WHERE account_id = $1', [account.userId]);
          // The browsers it signed in from (the new-device email's memory): a new account starts afresh.
          await ctx.services.oidc.signInSessions.forgetBrowsers(tx, customer.customerId);
          await writeAudit(tx, {
            source: 'server',
            eventId: 'account.closed',
            customerId: customer.customerId,
            onBehalfOf: customer.onBehalfOf,
            sessionId: meta.sessionId ?? null,
            correlationId: meta.correlationId ?? null,
            isSuccess: true,
            occurredAt: ctx.clock.now(),
            details: { sessionsEnded: ended },
          });
          await recordCustomerEvent(ctx, tx, {
            type: 'customer.account.closed',
            customerId: customer.customerId,
            data: {},
          });
        },
        meta,
      );
      if (!outcome.ok) throw codeRefused(outcome.reason);
      const to = record?.email ?? outcome.login;
      const site = await siteName();
      await tell(
        accountClosedEmail(
          { to, customerId: customer.customerId, firstName: record?.firstName ?? null },
          { siteName: site, at: outcome.at },
        ),
        meta,
      );
      return { closed: true };
    },
  };
}
export type ContactChangesService = ReturnType<typeof createContactChangesService>;
