import { recordCustomerEvent } from '../../platform/customer-events';
import { createHash } from 'node:crypto';
import type { RegistrationResult } from '@portal/contracts';
import { isValidIsoDateOfBirth, postcodeKey } from '@portal/contracts/fields';
import { writeAudit } from '../../platform/audit';
import { counterStore } from '../../platform/counters';
import { HttpError, badRequest, tooManyRequests } from '../../platform/errors';
import type { RegistrationContext } from './context';
import type { RequestMeta } from '../identity';
import {
  insertRegistrationRequest,
  latestRegistrationForUpdate,
  markRegistrationCompleted,
} from './registration.repository';

/** Registration attempts allowed per email address a day, and per client address an hour. */
const registrationLimits = {
  attemptsPerEmailPerDay: 5,
  attemptsPerIpPerHour: 30,
  resetRequestsPerIpPerHour: 20,
} as const;

const DAY = 24 * 60 * 60_000;
const HOUR = 60 * 60_000;

interface StartRegistration {
  emailAddress: string;
  dateOfBirth: string;
  postCode: string;
  policyNumber?: string | undefined;
}

export interface RegistrationService {
  /** Matches the details against customer records: docs/decisions/003 explains each status. */
  start(input: StartRegistration, clientIp: string, meta?: RequestMeta): Promise<RegistrationResult>;
  /** Finishes a registration after activation; repeating it is harmless. 400 INVALID_STATE_TOKEN otherwise. */
  complete(oktaUserId: string, stateToken: string, meta?: RequestMeta): Promise<{ status: 'COMPLETED' }>;
  /** Emails a reset link when the account exists; the same answer either way. */
  requestPasswordReset(email: string, clientIp: string, meta?: RequestMeta): Promise<{ status: 'OK' }>;
  /**
   * The contact centre sends the activation link again (issue 41 point 5) to a customer who registered and
   * has not used it: a new link to the address they registered with, voiding the earlier ones, as a new
   * registration would (audit `identity.activation.issued`, naming `meta.agent`). `not-pending` when there
   * is no account waiting for activation; `no-phone` when the record has no number for the codes.
   */
  resendActivation(customerId: string, meta: RequestMeta): Promise<'sent' | 'not-pending' | 'no-phone'>;
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
// Counter keys never hold an email address in clear.
const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

type Reason =
  | 'ACTIVATION_SENT'
  | 'ALREADY_REGISTERED'
  | 'EMAIL_MISMATCH'
  | 'NO_MATCH'
  | 'POLICY_NOT_MATCHED'
  | 'NO_PHONE_NUMBER'
  | 'NO_EMAIL_ON_FILE'
  | 'SEVERAL_MATCHES';

export function createRegistrationService(ctx: RegistrationContext): RegistrationService {
  const { db, clock, services } = ctx;
  const counters = () => counterStore(ctx);

  const audit = async (
    meta: RequestMeta,
    status: RegistrationResult['status'],
    reason: Reason,
    customerId: string | null,
  ) =>
    db.transaction((q) =>
      writeAudit(q, {
        source: 'server',
        eventId: 'registration.started',
        customerId,
        correlationId: meta.correlationId ?? null,
        sessionId: meta.sessionId ?? null,
        isSuccess: status === 'OK',
        failureReason: status === 'OK' ? null : reason,
        occurredAt: clock.now(),
        details: { status, reason },
      }),
    );

  const limit = async (key: string, max: number, windowMs: number) => {
    const decision = await (await counters()).take(key, max, windowMs);
    if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
  };

  return {
    async start(input, clientIp, meta = {}) {
      const today = clock.now().toISOString().slice(0, 10);
      if (!isValidIsoDateOfBirth(input.dateOfBirth, today)) {
        throw badRequest('The request body is not valid.', {
          dateOfBirth: 'Date of birth must be in the past',
        });
      }
      await limit(`registration-ip:${clientIp}`, registrationLimits.attemptsPerIpPerHour, HOUR);
      await limit(
        `registration-email:${emailKey(input.emailAddress)}`,
        registrationLimits.attemptsPerEmailPerDay,
        DAY,
      );

      const answer = async (
        status: RegistrationResult['status'],
        reason: Reason,
        customerId: string | null,
      ) => {
        await audit(meta, status, reason, customerId);
        return { status };
      };

      let customer;
      if (input.policyNumber) {
        // The policy's holder: the policy module knows the policy, the account module the customer.
        const policy = await services.policies.findByNumber(input.policyNumber);
        const holder = policy ? await services.customers.get(policy.customerId) : null;
        customer =
          holder &&
          holder.dateOfBirth === input.dateOfBirth &&
          postcodeKey(holder.postCode) === postcodeKey(input.postCode)
            ? holder
            : null;
        if (!customer) return answer('OK_2', 'POLICY_NOT_MATCHED', null);
      } else {
        const matches = await services.customers.findByDobAndPostcode(input.dateOfBirth, input.postCode);
        if (matches.length === 0) return answer('OK_2', 'NO_MATCH', null);
        if (matches.length > 1) return answer('NEED_MORE_DATA', 'SEVERAL_MATCHES', null);
        customer = matches[0]!;
        if (!customer.email) return answer('NEED_MORE_DATA', 'NO_EMAIL_ON_FILE', customer.customerId);
      }
      if (customer.email && !sameEmail(customer.email, input.emailAddress)) {
        return answer('OK_1', 'EMAIL_MISMATCH', customer.customerId);
      }
      if (!customer.mobileNumber && !customer.landlineNumber) {
        return answer('OK_2', 'NO_PHONE_NUMBER', customer.customerId);
      }
      const started = await services.identity.startActivation(
        {
          customerId: customer.customerId,
          firstName: customer.firstName,
          lastName: customer.lastName,
          mobileNumber: customer.mobileNumber,
          landlineNumber: customer.landlineNumber,
          email: input.emailAddress.trim(),
        },
        meta,
      );
      if (started.outcome === 'no-factors') return answer('OK_2', 'NO_PHONE_NUMBER', customer.customerId);
      if (started.outcome === 'reminder') return answer('OK', 'ALREADY_REGISTERED', customer.customerId);
      await db.transaction(async (q) => {
        await insertRegistrationRequest(q, {
          customerId: customer.customerId,
          userId: started.userId,
          email: input.emailAddress.trim().toLowerCase(),
          createdAt: clock.now(),
        });
        await writeAudit(q, {
          source: 'server',
          eventId: 'registration.started',
          customerId: customer.customerId,
          correlationId: meta.correlationId ?? null,
          sessionId: meta.sessionId ?? null,
          isSuccess: true,
          occurredAt: clock.now(),
          details: { status: 'OK', reason: 'ACTIVATION_SENT', withPolicyNumber: Boolean(input.policyNumber) },
        });
      });
      return { status: 'OK' };
    },

    async complete(oktaUserId, stateToken, meta = {}) {
      const finished = await services.identity.getFinishedActivation(oktaUserId, stateToken);
      if (!finished) {
        throw new HttpError(
          400,
          'INVALID_STATE_TOKEN',
          'The registration could not be completed: the activation is not finished or has expired.',
        );
      }
      const customer = await services.customers.get(finished.customerId);
      const at = clock.now();
      await db.transaction(async (q) => {
        const registration = await latestRegistrationForUpdate(q, finished.userId);
        if (registration?.completedAt) return;
        let emailRecorded = false;
        if (customer && !customer.email) {
          // A savepoint, so a refusal (another record already has the address) leaves the transaction usable.
          await q.query('SAVEPOINT record_email');
          try {
            await services.customers.setEmail(finished.customerId, finished.login, q);
            emailRecorded = true;
            await q.query('RELEASE SAVEPOINT record_email');
          } catch (error) {
            if (!(error instanceof HttpError)) throw error;
            await q.query('ROLLBACK TO SAVEPOINT record_email');
          }
        }
        await markRegistrationCompleted(q, finished.userId, at);
        await writeAudit(q, {
          source: 'server',
          eventId: 'registration.completed',
          customerId: finished.customerId,
          correlationId: meta.correlationId ?? null,
          sessionId: meta.sessionId ?? null,
          isSuccess: true,
          occurredAt: at,
          details: { emailRecorded },
        });
        await recordCustomerEvent(ctx, q, {
          type: 'customer.registration.completed',
          customerId: finished.customerId,
          occurredAt: at,
          data: { email: finished.login },
        });
      });
      return { status: 'COMPLETED' };
    },

    async resendActivation(customerId, meta) {
      const [user, customer] = await Promise.all([
        services.identity.getUserByCustomerId(customerId),
        services.customers.get(customerId),
      ]);
      if (!user || user.status !== 'PROVISIONED' || !customer) return 'not-pending';
      const started = await services.identity.startActivation(
        {
          customerId,
          firstName: customer.firstName,
          lastName: customer.lastName,
          mobileNumber: customer.mobileNumber,
          landlineNumber: customer.landlineNumber,
          email: user.login,
        },
        meta,
      );
      if (started.outcome === 'no-factors') return 'no-phone';
      // Someone activated meanwhile, or another account took the address: a reminder went instead.
      if (started.outcome === 'reminder') return 'not-pending';
      await db.transaction((q) =>
        insertRegistrationRequest(q, {
          customerId,
          userId: started.userId,
          email: user.login,
          createdAt: clock.now(),
        }),
      );
      return 'sent';
    },

    async requestPasswordReset(email, clientIp, meta = {}) {
      await limit(`reset-ip:${clientIp}`, registrationLimits.resetRequestsPerIpPerHour, HOUR);
      await services.identity.requestPasswordReset(email, meta);
      return { status: 'OK' };
    },
  };
}
