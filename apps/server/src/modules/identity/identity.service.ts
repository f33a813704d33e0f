import { hashPassword } from '../../platform/password-hash';
import { counterStore } from '../../platform/counters';
import type { Queryable } from '../../platform/db';
import { HttpError, notFound } from '../../platform/errors';
import type { ModuleContext } from '../../platform/module';
import { notifier, type OutboundMessage } from '../../platform/notifier';
import { createAuthn, identityLimits, type Authn, type RequestMeta } from './authn.service';
import { activationEmail, alreadyRegisteredEmail, passwordResetEmail } from './emails';
import {
  consumeSessionToken,
  findOpenStepUp,
  findTransactionByStateToken,
  findUserByCustomerId,
  findUserById,
  findUserByLogin,
  insertUser,
  listFactors,
  recordSuccess,
  setPassword,
  syncFactors,
  updateProvisionedUser,
  updateTransaction,
  useCode,
  type FactorRow,
  type UserRow,
  type UserStatus,
} from './identity.repository';
import { OktaHttpError } from './okta-errors';
import { newPasswordProblem } from './password-policy';
import { isMobileNumber, maskPhone, nationalNumber } from './phone';
import { hashToken, newId } from './secrets';
import { padded } from './authn/timing';

export type { RequestMeta } from './authn.service';

interface IdentityUser {
  id: string;
  customerId: string;
  login: string;
  status: UserStatus;
  firstName: string;
  lastName: string;
}

/** A customer's second factor as other modules see it: the number is always masked. */
interface IdentityFactor {
  id: string;
  factorType: 'sms' | 'call';
  /** Masked to the last 3 digits. */
  phoneNumber: string;
  isMobile: boolean;
  /** 6 for a mobile number, 5 for a landline. */
  codeLength: 5 | 6;
}

/** The new password breaks a rule; `reason` is the sentence to show the customer. */
export class PasswordPolicyError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The outcome of changePasswordWithStepUp; `reason` is the sentence to show the customer. */
type StepUpPasswordChange =
  | { ok: true; changedAt: Date }
  | { ok: false; refused: 'code' | 'current-password' | 'new-password'; reason: string };

/** What the registration module needs to start an activation. */
interface ActivationRequest {
  customerId: string;
  firstName: string;
  lastName: string;
  mobileNumber: string | null;
  landlineNumber: string | null;
  /** The address the customer registers with; it becomes their sign-in name. */
  email: string;
}

/**
 * The identity module's service for other modules (ctx.services.identity). Call these outside any open
 * database transaction unless a `tx` parameter is offered.
 */
export interface IdentityService {
  /** Atomic single use of a sessionToken from a SUCCESS answer (5 minutes); null when unknown, used or expired. */
  consumeSessionToken(
    token: string,
  ): Promise<{ userId: string; customerId: string; login: string; amr: string[] } | null>;
  getUser(userId: string): Promise<IdentityUser | null>;
  getUserByCustomerId(customerId: string): Promise<IdentityUser | null>;
  /** When the customer last set their password; null without an account or password. */
  getPasswordLastUpdated(customerId: string): Promise<Date | null>;
  /**
   * Checks the customer's current password (profile changes). A wrong one counts towards the account's
   * lockout, like a failed sign-in; a locked account always answers false.
   */
  verifyPassword(customerId: string, password: string, meta?: RequestMeta): Promise<boolean>;
  /**
   * Sets a new password after the same rules as registration and reset (settings, no spaces, not common,
   * not the email's local part, not the current one). Throws PasswordPolicyError with the reason, or 404.
   */
  changePassword(customerId: string, newPassword: string, tx?: Queryable, meta?: RequestMeta): Promise<void>;
  /** The customer's second factors (masked), sms first. Empty without an account. */
  getFactors(customerId: string): Promise<IdentityFactor[]>;
  /**
   * Sends a one-time code for a profile change by text (sms) or voice call (call: the landline when there
   * is one, else the mobile). Same rules as sign-in codes. Throws HttpError 404 (no such factor or
   * account), 429 with Retry-After (too soon, too many, or account locked), 502 (not delivered).
   */
  sendStepUpCode(
    customerId: string,
    method: 'sms' | 'call',
    meta?: RequestMeta,
  ): Promise<{ expiresAt: Date; codeLength: 5 | 6; phoneNumber: string; factorType: 'sms' | 'call' }>;
  /**
   * The password change guarded by the code from sendStepUpCode, in one database transaction that holds
   * the step-up. A wrong, expired or used code uses one of the code's attempts and counts towards the
   * lockout (`code`). With the right code, a wrong current password counts towards the lockout
   * (`current-password`) and a new password the rules refuse (as changePassword's) is `new-password`; the
   * code stays live for another try in both cases. Only a change uses the code up, together with the new
   * password, the audit rows and what `alongside` writes in the same transaction (it may throw to undo it
   * all). Of two changes with one code at once, one changes and the other is refused as `code`.
   */
  changePasswordWithStepUp(
    customerId: string,
    change: { passCode: string; currentPassword: string; newPassword: string },
    alongside: (tx: Queryable) => Promise<void>,
    meta?: RequestMeta,
  ): Promise<StepUpPasswordChange>;

  /**
   * Registration: creates or refreshes the customer's not-yet-active account with `email` as its sign-in
   * name and emails an activation link (24 hours; voids older links). When the customer, or the owner of
   * that address, already has an active account, emails that account's address an "already registered"
   * reminder instead. 'no-factors' when the record has no phone number to send codes to.
   */
  startActivation(
    request: ActivationRequest,
    meta?: RequestMeta,
  ): Promise<{ outcome: 'activation'; userId: string } | { outcome: 'reminder' } | { outcome: 'no-factors' }>;
  /**
   * Forgotten password: emails a reset link (60 minutes) when an account has that sign-in email (an
   * activation link if it was never activated), at most 3 an hour per account. Silent otherwise.
   */
  requestPasswordReset(email: string, meta?: RequestMeta): Promise<void>;
  /** The user of an activation transaction that reached SUCCESS, while its stateToken lives; else null. */
  getFinishedActivation(
    userId: string,
    stateToken: string,
  ): Promise<{ userId: string; customerId: string; login: string } | null>;
}

const publicUser = (u: UserRow): IdentityUser => ({
  id: u.id,
  customerId: u.customerId,
  login: u.login,
  status: u.status,
  firstName: u.firstName,
  lastName: u.lastName,
});

/** Second factors for a customer's numbers: a text and a call to a mobile, a call to a landline. */
export function factorsForNumbers(
  numbers: Array<string | null>,
): Array<{ id: string; factorType: 'sms' | 'call'; phoneNumber: string; isMobile: boolean }> {
  const distinct = [
    ...new Set(numbers.filter((n): n is string => !!n && n.trim() !== '').map(nationalNumber)),
  ];
  return distinct.flatMap((phoneNumber) => {
    const isMobile = isMobileNumber(phoneNumber);
    const call = { id: newId('clf'), factorType: 'call' as const, phoneNumber, isMobile };
    return isMobile
      ? [{ id: newId('sms'), factorType: 'sms' as const, phoneNumber, isMobile }, call]
      : [call];
  });
}

export function createIdentityService(ctx: ModuleContext, authn: Authn = createAuthn(ctx)): IdentityService {
  const { db, clock, config } = ctx;
  const now = () => clock.now();
  const send = async (message: OutboundMessage, meta: RequestMeta) => {
    try {
      await notifier(ctx).enqueue(message, { log: meta.log });
    } catch {
      // Already logged (masked) by the notifier. Answers must not differ by whether an email went out.
    }
  };

  const pickFactor = (factors: FactorRow[], method: 'sms' | 'call') =>
    method === 'sms'
      ? factors.find((f) => f.factorType === 'sms')
      : (factors.find((f) => f.factorType === 'call' && !f.isMobile) ??
        factors.find((f) => f.factorType === 'call'));

  const service: IdentityService = {
    async consumeSessionToken(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 200) return null;
      const used = await consumeSessionToken(db, hashToken(token), now());
      if (!used) return null;
      const user = await findUserById(db, used.userId);
      if (!user || user.status !== 'ACTIVE') return null;
      return { userId: user.id, customerId: user.customerId, login: user.login, amr: used.amr };
    },

    async getUser(userId) {
      const user = await findUserById(db, userId);
      return user ? publicUser(user) : null;
    },

    async getUserByCustomerId(customerId) {
      const user = await findUserByCustomerId(db, customerId);
      return user ? publicUser(user) : null;
    },

    async getPasswordLastUpdated(customerId) {
      return (await findUserByCustomerId(db, customerId))?.passwordChangedAt ?? null;
    },

    async verifyPassword(customerId, password, meta = {}) {
      const user = await findUserByCustomerId(db, customerId);
      if (!user || user.status !== 'ACTIVE') return false;
      const ok = await authn.verifyPasswordHash(user, password);
      if (authn.isLocked(user)) return false;
      if (ok) return true;
      const at = now();
      await db.transaction((q) => authn.countWrongPassword(q, user, at, meta));
      return false;
    },

    async changePassword(customerId, newPassword, tx, meta = {}) {
      const user = await findUserByCustomerId(tx ?? db, customerId);
      if (!user || user.status !== 'ACTIVE') throw notFound('No account for this customer');
      const problem = await newPasswordProblem(newPassword, await authn.passwordRules(), user.login, () =>
        authn.verifyPasswordHash(user, newPassword),
      );
      const hash = problem ? null : await hashPassword(newPassword);
      const write = async (q: Queryable) => {
        if (problem || !hash) {
          await authn.audit(q, meta, {
            eventId: 'identity.password.set',
            customerId,
            isSuccess: false,
            failureReason: 'PASSWORD_POLICY',
            details: { rule: problem, purpose: 'change' },
          });
          return;
        }
        await setPassword(q, user.id, hash, now(), false);
        await authn.audit(q, meta, {
          eventId: 'identity.password.set',
          customerId,
          isSuccess: true,
          details: { purpose: 'change' },
        });
      };
      if (tx) await write(tx);
      else await db.transaction(write);
      if (problem) throw new PasswordPolicyError(problem);
    },

    async getFactors(customerId) {
      const user = await findUserByCustomerId(db, customerId);
      if (!user) return [];
      return (await listFactors(db, user.id)).map((f) => ({
        id: f.id,
        factorType: f.factorType,
        phoneNumber: maskPhone(f.phoneNumber),
        isMobile: f.isMobile,
        codeLength: f.isMobile ? 6 : 5,
      }));
    },

    async sendStepUpCode(customerId, method, meta = {}) {
      const user = await findUserByCustomerId(db, customerId);
      if (!user || user.status !== 'ACTIVE') throw notFound('No such factor for this customer');
      const factor = pickFactor(await listFactors(db, user.id), method);
      if (!factor) throw notFound('No such factor for this customer');
      if (authn.isLocked(user)) {
        const seconds = Math.ceil((user.lockedUntil!.getTime() - now().getTime()) / 1000);
        throw new HttpError(
          429,
          'ACCOUNT_LOCKED',
          'Too many failed attempts. Please wait and try again.',
          undefined,
          {
            'Retry-After': String(Math.max(1, seconds)),
          },
        );
      }
      const t = await db.transaction(
        async (q) =>
          (await findOpenStepUp(q, user.id, now())) ??
          (await authn.createTransaction(q, user.id, 'stepup', 'MFA_REQUIRED')).transaction,
      );
      let sent;
      try {
        sent = await authn.issueCode(t, user, factor, meta);
      } catch (error) {
        if (error instanceof OktaHttpError) {
          throw new HttpError(
            error.statusCode,
            'CODE_NOT_SENT',
            error.errorSummary,
            undefined,
            error.headers,
          );
        }
        throw error;
      }
      if (!sent.ok) {
        throw new HttpError(
          429,
          'TOO_MANY_REQUESTS',
          'Too many codes asked for. Please wait and try again.',
          undefined,
          {
            'Retry-After': String(sent.retryAfterSeconds),
          },
        );
      }
      return {
        expiresAt: sent.expiresAt,
        codeLength: sent.codeLength,
        phoneNumber: maskPhone(factor.phoneNumber),
        factorType: factor.factorType,
      };
    },

    async changePasswordWithStepUp(customerId, change, alongside, meta = {}) {
      const refused = (
        kind: 'code' | 'current-password' | 'new-password',
        reason: string,
      ): StepUpPasswordChange => ({ ok: false, refused: kind, reason });
      const noCode = () => refused('code', 'That code is not right, or it has expired. Ask for a new code.');
      const user = await findUserByCustomerId(db, customerId);
      if (!user || user.status !== 'ACTIVE') return noCode();
      // The password hashing happens before the transaction: PGlite queues every other query behind an
      // open one, and a hash takes tens of milliseconds.
      const rules = await authn.passwordRules();
      const currentOk = await authn.verifyPasswordHash(user, change.currentPassword);
      const problem = await newPasswordProblem(
        change.newPassword,
        rules,
        user.login,
        () => change.newPassword === change.currentPassword,
      );
      const hash = problem ? null : await hashPassword(change.newPassword);
      const at = now();
      return db.transaction(async (q): Promise<StepUpPasswordChange> => {
        // Holding the step-up's row: a second change with the same code waits here, then finds it finished.
        const t = await findOpenStepUp(q, user.id, at);
        const fresh = await findUserById(q, user.id, true);
        if (!t || t.status !== 'MFA_CHALLENGE' || !t.factorId) return noCode();
        if (!fresh || fresh.status !== 'ACTIVE' || authn.isLocked(fresh)) return noCode();
        const matched = await authn.matchCode(q, t, fresh, t.factorId, change.passCode, meta, at);
        if (!matched.ok) return refused('code', matched.cause);

        // The password changed since it was checked above (a reset meanwhile): check it again.
        const stillCurrent =
          fresh.passwordHash === user.passwordHash
            ? currentOk
            : await authn.verifyPasswordHash(fresh, change.currentPassword);
        if (!stillCurrent) {
          await authn.countWrongPassword(q, fresh, at, meta);
          return refused('current-password', 'Your current password is not right.');
        }
        if (problem || !hash) {
          await authn.audit(q, meta, {
            eventId: 'identity.password.set',
            customerId,
            isSuccess: false,
            failureReason: 'PASSWORD_POLICY',
            details: { rule: problem, purpose: 'change' },
          });
          return refused('new-password', problem ?? 'Choose a different password.');
        }

        // The conditional UPDATE decides between changes that got this far with one code.
        if (!(await useCode(q, matched.code.id, at))) return noCode();
        await updateTransaction(q, t.id, { status: 'SUCCESS', completedAt: at });
        await recordSuccess(q, user.id, at);
        await authn.audit(q, meta, {
          eventId: 'identity.stepup.verified',
          customerId,
          isSuccess: true,
          details: {
            mfaSendMethod: (await listFactors(q, user.id)).find((f) => f.id === t.factorId)?.factorType,
          },
        });
        await setPassword(q, user.id, hash, at, false);
        await authn.audit(q, meta, {
          eventId: 'identity.password.set',
          customerId,
          isSuccess: true,
          details: { purpose: 'change' },
        });
        await alongside(q);
        return { ok: true, changedAt: at };
      });
    },

    async startActivation(request, meta = {}) {
      const login = request.email.trim().toLowerCase();
      const factors = factorsForNumbers([request.mobileNumber, request.landlineNumber]);
      const at = now();
      const result = await db.transaction(async (q) => {
        const existing = await findUserByCustomerId(q, request.customerId, true);
        const owner = await findUserByLogin(q, login);
        if (owner && owner.customerId !== request.customerId) return { kind: 'reminder' as const, to: owner };
        if (existing && existing.status !== 'PROVISIONED') return { kind: 'reminder' as const, to: existing };
        if (factors.length === 0) return { kind: 'no-factors' as const };
        let userId: string;
        if (existing) {
          userId = existing.id;
          await updateProvisionedUser(q, userId, {
            login,
            firstName: request.firstName,
            lastName: request.lastName,
          });
        } else {
          userId = newId('00u');
          await insertUser(q, { ...request, id: userId, login, status: 'PROVISIONED', now: at });
        }
        await syncFactors(q, userId, factors, at);
        const token = await authn.issueLinkToken(q, userId, 'activation');
        await authn.audit(q, meta, {
          eventId: 'identity.activation.issued',
          customerId: request.customerId,
          isSuccess: true,
          details: { factors: factors.map((f) => `${f.factorType}:${maskPhone(f.phoneNumber)}`) },
        });
        return { kind: 'activation' as const, userId, token };
      });
      if (result.kind === 'no-factors') return { outcome: 'no-factors' };
      if (result.kind === 'reminder') {
        await db.transaction((q) =>
          authn.audit(q, meta, {
            eventId: 'identity.activation.issued',
            customerId: result.to.customerId,
            isSuccess: false,
            failureReason: 'ALREADY_REGISTERED',
          }),
        );
        await send(alreadyRegisteredEmail(result.to.login, result.to, config.publicUrl), meta);
        return { outcome: 'reminder' };
      }
      await send(activationEmail(login, request, config.publicUrl, result.token), meta);
      return { outcome: 'activation', userId: result.userId };
    },

    async requestPasswordReset(email, meta = {}) {
      const user = await findUserByLogin(db, email.trim().toLowerCase());
      if (!user || (user.status !== 'ACTIVE' && user.status !== 'PROVISIONED')) return;
      const decision = await (
        await counterStore(ctx)
      ).take(`reset-email:${user.id}`, identityLimits.resetEmailsPerAccountPerHour, 60 * 60_000);
      const kind = user.status === 'PROVISIONED' ? ('activation' as const) : ('recovery' as const);
      const token = await db.transaction(async (q) => {
        await authn.audit(q, meta, {
          eventId: 'identity.password.reset.requested',
          customerId: user.customerId,
          isSuccess: decision.allowed,
          failureReason: decision.allowed ? null : 'RATE_LIMITED',
          details: { link: kind },
        });
        return decision.allowed ? authn.issueLinkToken(q, user.id, kind) : null;
      });
      if (!token) return;
      await send(
        kind === 'activation'
          ? activationEmail(user.login, user, config.publicUrl, token)
          : passwordResetEmail(user.login, user, config.publicUrl, token),
        meta,
      );
    },

    async getFinishedActivation(userId, stateToken) {
      if (stateToken.length > 200) return null;
      const t = await findTransactionByStateToken(db, hashToken(stateToken));
      if (
        !t ||
        t.kind !== 'activation' ||
        t.status !== 'SUCCESS' ||
        t.userId !== userId ||
        t.expiresAt.getTime() <= now().getTime()
      ) {
        return null;
      }
      const user = await findUserById(db, userId);
      return user ? { userId: user.id, customerId: user.customerId, login: user.login } : null;
    },
  };
  return {
    ...service,
    startActivation: padded(service.startActivation),
    requestPasswordReset: padded(service.requestPasswordReset),
  };
}
