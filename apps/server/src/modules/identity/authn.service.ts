import { hashPassword, verifyPassword } from '../../platform/password-hash';
import type { AuthnTransaction, OktaFactor } from '@portal/contracts';
import { writeAudit, type AuditRow } from '../../platform/audit';
import { counterStore, type RateDecision } from '../../platform/counters';
import type { Queryable } from '../../platform/db';
import type { ModuleContext } from '../../platform/module';
import { DeliveryError, notifier, type NotifyLog } from '../../platform/notifier';
import {
  activateUser,
  consumeLinkToken,
  findTransactionById,
  findTransactionByStateToken,
  findUserById,
  findUserByLogin,
  insertCode,
  insertLinkToken,
  insertSessionToken,
  insertTransaction,
  killCodes,
  lastCodeSentAt,
  latestCode,
  listFactors,
  lockOpenSignIns,
  markCodeDead,
  recordCodeAttempt,
  recordFailure,
  recordSuccess,
  setPassword,
  updateTransaction,
  useCode,
  voidLinkTokens,
  type CodeRow,
  type FactorRow,
  type TransactionKind,
  type TransactionRow,
  type UserRow,
} from './identity.repository';
import { oktaErrors } from './okta-errors';
import {
  oktaPasswordPolicy,
  passwordProblem,
  rulesFromSettings,
  type PasswordRules,
} from './password-policy';
import { maskPhone } from './phone';
import { generateCode, hashCode, hashToken, newId, newSalt, randomToken, sameDigest } from './secrets';

/** Every limit and lifetime of the identity rules, in one place (docs/decisions/004). */
export const identityLimits = {
  stateTokenMs: 10 * 60_000,
  sessionTokenMs: 5 * 60_000,
  codeMs: 5 * 60_000,
  mobileCodeAttempts: 5,
  landlineCodeAttempts: 3,
  resendIntervalMs: 30_000,
  sendsPerTransaction: 5,
  sendsPerAccountPerHour: 10,
  activationTokenMs: 24 * 60 * 60_000,
  recoveryTokenMs: 60 * 60_000,
  resetEmailsPerAccountPerHour: 3,
  lockoutThreshold: 10,
  lockoutMs: 30 * 60_000,
  authnPerUsernamePerSecond: 4,
} as const;

const HOUR = 60 * 60_000;

/** Who is asking: for audit rows and the log lines of messages sent. */
export interface RequestMeta {
  correlationId?: string;
  sessionId?: string;
  log?: NotifyLog;
}

/** The outcome of sending a code, before it is shaped for Okta's API or the portal's. */
type SendOutcome =
  | { ok: true; expiresAt: Date; codeLength: 5 | 6; transaction: TransactionRow }
  | { ok: false; retryAfterSeconds: number; decision?: RateDecision };

/** The outcome of checking a code. */
type CheckOutcome =
  | { ok: true; transaction: TransactionRow; sessionToken: string | null; sessionExpiresAt: Date }
  | { ok: false; reason: 'wrong-state' }
  | { ok: false; reason: 'invalid'; cause: string };

export type Authn = ReturnType<typeof createAuthn>;

/**
 * The rules of Okta's classic Authentication API as this portal applies them: primary authentication,
 * activation and recovery tokens, factor challenge and verify, password reset, cancel. Also the step-up
 * codes of the profile pages, which share the code rules. HTTP shapes are built here too, since they
 * are Okta's contract; routes only parse input and set headers.
 */
export function createAuthn(ctx: ModuleContext) {
  const { db, clock, config } = ctx;
  const orgUrl = config.baseUrls.identity;
  const now = () => clock.now();
  const counters = () => counterStore(ctx);

  // Unknown users get the same argon2 work as known ones, so the answer takes the same time.
  let dummyHash: Promise<string> | undefined;
  const verifyAgainstDummy = async (password: string) => {
    dummyHash ??= hashPassword(randomToken());
    await verifyPassword(await dummyHash, password);
    return false;
  };
  const verifyPasswordHash = async (user: UserRow, password: string) =>
    user.passwordHash ? verifyPassword(user.passwordHash, password) : verifyAgainstDummy(password);

  const audit = (q: Queryable, meta: RequestMeta, row: Omit<AuditRow, 'source'>) =>
    writeAudit(q, {
      source: 'server',
      correlationId: meta.correlationId ?? null,
      sessionId: meta.sessionId ?? null,
      occurredAt: now(),
      ...row,
    });

  async function passwordRules(): Promise<PasswordRules> {
    const settings = await ctx.services.content.getSiteSettings();
    return rulesFromSettings(settings.globalPasswordRequirementsBlock);
  }

  /* Okta shapes ---------------------------------------------------------------------------------- */

  const link = (path: string, name?: string) => ({
    ...(name ? { name } : {}),
    href: `${orgUrl}${path}`,
    hints: { allow: ['POST'] },
  });
  const userJson = (user: UserRow) => ({
    id: user.id,
    passwordChanged: user.passwordChangedAt ? user.passwordChangedAt.toISOString() : null,
    profile: {
      login: user.login,
      firstName: user.firstName,
      lastName: user.lastName,
      locale: 'en_GB',
      timeZone: 'Europe/London',
    },
  });
  const factorJson = (f: FactorRow): OktaFactor => ({
    id: f.id,
    factorType: f.factorType,
    provider: 'OKTA',
    vendorName: 'OKTA',
    profile: {
      phoneNumber: maskPhone(f.phoneNumber),
      landlineIsAMobile: f.factorType === 'call' && f.isMobile,
    },
    _links: { verify: link(`/api/v1/authn/factors/${f.id}/verify`) },
  });
  const cancelLink = () => link('/api/v1/authn/cancel');

  async function mfaRequired(
    stateToken: string,
    t: TransactionRow,
    user: UserRow,
  ): Promise<AuthnTransaction> {
    return {
      status: 'MFA_REQUIRED',
      stateToken,
      expiresAt: t.expiresAt.toISOString(),
      _embedded: { user: userJson(user), factors: (await listFactors(db, user.id)).map(factorJson) },
      _links: { cancel: cancelLink() },
    };
  }

  function mfaChallenge(
    stateToken: string,
    t: TransactionRow,
    user: UserRow,
    factor: FactorRow,
  ): AuthnTransaction {
    return {
      status: 'MFA_CHALLENGE',
      stateToken,
      expiresAt: t.expiresAt.toISOString(),
      factorResult: 'CHALLENGE',
      _embedded: { user: userJson(user), factor: factorJson(factor) },
      _links: {
        next: link(`/api/v1/authn/factors/${factor.id}/verify`, 'verify'),
        prev: link('/api/v1/authn/previous'),
        cancel: cancelLink(),
        resend: [link(`/api/v1/authn/factors/${factor.id}/verify/resend`, factor.factorType)],
      },
    };
  }

  async function passwordReset(
    stateToken: string,
    t: TransactionRow,
    user: UserRow,
  ): Promise<AuthnTransaction> {
    return {
      status: 'PASSWORD_RESET',
      stateToken,
      expiresAt: t.expiresAt.toISOString(),
      recoveryType: t.kind === 'activation' ? 'ACCOUNT_ACTIVATION' : 'PASSWORD',
      _embedded: { user: userJson(user), policy: oktaPasswordPolicy(await passwordRules()) },
      _links: {
        next: link('/api/v1/authn/credentials/reset_password', 'resetPassword'),
        cancel: cancelLink(),
      },
    };
  }

  /* Transactions --------------------------------------------------------------------------------- */

  async function createTransaction(
    q: Queryable,
    userId: string,
    kind: TransactionKind,
    status: TransactionRow['status'],
  ): Promise<{ stateToken: string; transaction: TransactionRow }> {
    const stateToken = randomToken('00');
    const createdAt = now();
    const transaction: TransactionRow = {
      id: newId('txn'),
      userId,
      kind,
      status,
      factorId: null,
      pendingPasswordHash: null,
      sendCount: 0,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + identityLimits.stateTokenMs),
    };
    await insertTransaction(q, { ...transaction, stateTokenHash: hashToken(stateToken) });
    return { stateToken, transaction };
  }

  /** The live transaction of a stateToken, or 401 E0000011. */
  async function liveTransaction(
    q: Queryable,
    stateToken: string,
    forUpdate = false,
  ): Promise<TransactionRow> {
    const t = await findTransactionByStateToken(q, hashToken(stateToken), forUpdate);
    if (
      !t ||
      t.kind === 'stepup' ||
      t.expiresAt.getTime() <= now().getTime() ||
      t.status === 'CANCELLED' ||
      t.status === 'LOCKED_OUT'
    ) {
      throw oktaErrors.invalidToken();
    }
    return t;
  }

  async function userOf(q: Queryable, t: TransactionRow): Promise<UserRow> {
    const user = await findUserById(q, t.userId);
    if (!user) throw oktaErrors.invalidToken();
    return user;
  }

  async function factorOf(user: UserRow, factorId: string): Promise<FactorRow> {
    const factor = (await listFactors(db, user.id)).find((f) => f.id === factorId);
    if (!factor) throw oktaErrors.factorNotFound(factorId);
    return factor;
  }

  /* Codes ---------------------------------------------------------------------------------------- */

  const retryAfter = (until: Date) => Math.max(1, Math.ceil((until.getTime() - now().getTime()) / 1000));

  /**
   * Sends a new code for the factor in transaction `t` (the previous one dies): at most one send per
   * 30 seconds per factor, 5 per transaction and 10 per account an hour.
   */
  async function issueCode(
    t: TransactionRow,
    user: UserRow,
    factor: FactorRow,
    meta: RequestMeta,
  ): Promise<SendOutcome> {
    const tooSoon = async (q: Queryable): Promise<SendOutcome | null> => {
      const last = await lastCodeSentAt(q, t.id, factor.id);
      if (last && now().getTime() - last.getTime() < identityLimits.resendIntervalMs) {
        return {
          ok: false,
          retryAfterSeconds: retryAfter(new Date(last.getTime() + identityLimits.resendIntervalMs)),
        };
      }
      return null;
    };
    const early = await tooSoon(db);
    if (early) return early;
    if (t.sendCount >= identityLimits.sendsPerTransaction)
      return { ok: false, retryAfterSeconds: retryAfter(t.expiresAt) };
    const decision = await (
      await counters()
    ).take(`mfa-send:${user.id}`, identityLimits.sendsPerAccountPerHour, HOUR);
    if (!decision.allowed) return { ok: false, retryAfterSeconds: decision.retryAfterSeconds, decision };

    const codeLength: 5 | 6 = factor.isMobile ? 6 : 5;
    const code = generateCode(codeLength);
    const sentAt = now();
    const expiresAt = new Date(sentAt.getTime() + identityLimits.codeMs);
    const outcome = await db.transaction(async (q): Promise<SendOutcome> => {
      const fresh = await findTransactionById(q, t.id, true);
      if (!fresh || fresh.status !== t.status || fresh.sendCount >= identityLimits.sendsPerTransaction) {
        return { ok: false, retryAfterSeconds: retryAfter(t.expiresAt) };
      }
      const late = await tooSoon(q);
      if (late) return late;
      await killCodes(q, t.id, sentAt);
      const salt = newSalt();
      await insertCode(q, {
        transactionId: t.id,
        factorId: factor.id,
        codeHash: hashCode(code, salt, t.id),
        salt,
        codeLength,
        maxAttempts: factor.isMobile
          ? identityLimits.mobileCodeAttempts
          : identityLimits.landlineCodeAttempts,
        createdAt: sentAt,
        expiresAt,
      });
      const updated = {
        ...fresh,
        status: 'MFA_CHALLENGE' as const,
        factorId: factor.id,
        sendCount: fresh.sendCount + 1,
      };
      await updateTransaction(q, t.id, {
        status: updated.status,
        factorId: factor.id,
        sendCount: updated.sendCount,
      });
      await audit(q, meta, {
        eventId: 'identity.mfa.sent',
        customerId: user.customerId,
        isSuccess: true,
        details: {
          mfaSendMethod: factor.factorType,
          phoneNumber: maskPhone(factor.phoneNumber),
          codeLength,
          send: updated.sendCount,
          purpose: t.kind,
        },
      });
      return { ok: true, expiresAt, codeLength, transaction: updated };
    });
    if (!outcome.ok) return outcome;
    const spoken = code.split('').join(', ');
    try {
      await notifier(ctx).send(
        factor.factorType === 'sms'
          ? {
              channel: 'sms',
              to: factor.phoneNumber,
              kind: 'mfa-code',
              customerId: user.customerId,
              text: `Your security code is ${code}. It expires in 5 minutes. We will never ask you for this code.`,
            }
          : {
              channel: 'voice',
              to: factor.phoneNumber,
              kind: 'mfa-code',
              customerId: user.customerId,
              text: `Hello. Your security code is ${spoken}. Again, your security code is ${spoken}. It expires in 5 minutes.`,
            },
        meta.log,
      );
    } catch (error) {
      if (error instanceof DeliveryError) {
        await killCodes(db, t.id, now());
        throw oktaErrors.deliveryFailed();
      }
      throw error;
    }
    return outcome;
  }

  /** An audited refusal of a code. */
  async function refuseCode(
    q: Queryable,
    t: TransactionRow,
    user: UserRow,
    meta: RequestMeta,
    reason: string,
    cause: string,
    extra: Record<string, unknown> = {},
  ): Promise<{ ok: false; reason: 'invalid'; cause: string }> {
    await audit(q, meta, {
      eventId: 'identity.mfa.failed',
      customerId: user.customerId,
      isSuccess: false,
      failureReason: reason,
      details: { purpose: t.kind, ...extra },
    });
    return { ok: false, reason: 'invalid', cause };
  }

  /**
   * Checks a code against transaction `t`'s live code for the factor, in the caller's database transaction
   * `q` (which holds `t`'s row), and leaves it unused: the caller uses it up (useCode) with the work the
   * code guards. A wrong code uses one of the code's attempts (5 for a mobile code, 3 for a landline one)
   * and counts towards the account's lockout; an expired one dies. Every refusal is audited.
   */
  async function matchCode(
    q: Queryable,
    t: TransactionRow,
    user: UserRow,
    factorId: string,
    passCode: string,
    meta: RequestMeta,
    at: Date,
  ): Promise<{ ok: true; code: CodeRow } | { ok: false; reason: 'invalid'; cause: string }> {
    const code = await latestCode(q, t.id, factorId);
    if (!code || code.usedAt || code.deadAt) {
      return refuseCode(
        q,
        t,
        user,
        meta,
        'CODE_NOT_ACTIVE',
        'This code can no longer be used. Ask for a new code.',
      );
    }
    if (code.expiresAt.getTime() <= at.getTime()) {
      await markCodeDead(q, code.id, at);
      return refuseCode(q, t, user, meta, 'CODE_EXPIRED', 'This code has expired. Ask for a new code.');
    }
    const matches =
      /^\d+$/.test(passCode) &&
      passCode.length === code.codeLength &&
      sameDigest(hashCode(passCode, code.salt, t.id), code.codeHash);
    if (matches) return { ok: true, code };
    const exhausted = code.attempts + 1 >= code.maxAttempts;
    await recordCodeAttempt(q, code.id, at, exhausted);
    const { lockedNow } = await recordFailure(
      q,
      user.id,
      identityLimits.lockoutThreshold,
      new Date(at.getTime() + identityLimits.lockoutMs),
    );
    const outcome = await refuseCode(
      q,
      t,
      user,
      meta,
      exhausted ? 'CODE_ATTEMPTS_EXCEEDED' : 'WRONG_CODE',
      exhausted
        ? 'That code is not right and can no longer be used. Ask for a new code.'
        : 'That code is not right. Check it and try again.',
      { attemptsLeft: code.maxAttempts - code.attempts - 1 },
    );
    if (lockedNow) await lockAccount(q, user, at, meta, 'CODE');
    return outcome;
  }

  /**
   * Checks a code against the transaction's live code for the factor (matchCode's rules) and uses it up.
   * The right one finishes the transaction: the pending password takes effect, an activation activates,
   * and a sign-in, activation or recovery gets a one-time sessionToken.
   */
  async function checkCode(
    transactionId: string,
    factorId: string,
    passCode: string,
    meta: RequestMeta,
    acceptStepUp: boolean,
  ): Promise<CheckOutcome> {
    const at = now();
    return db.transaction(async (q): Promise<CheckOutcome> => {
      const t = await findTransactionById(q, transactionId, true);
      if (!t || (t.kind === 'stepup') !== acceptStepUp) return { ok: false, reason: 'wrong-state' };
      if (t.status !== 'MFA_CHALLENGE' || t.factorId !== factorId)
        return { ok: false, reason: 'wrong-state' };
      const user = await findUserById(q, t.userId, true);
      if (!user) return { ok: false, reason: 'wrong-state' };
      const matched = await matchCode(q, t, user, factorId, passCode, meta, at);
      if (!matched.ok) return matched;
      if (!(await useCode(q, matched.code.id, at)))
        return refuseCode(q, t, user, meta, 'CODE_NOT_ACTIVE', 'This code can no longer be used.');

      await updateTransaction(q, t.id, { status: 'SUCCESS', completedAt: at, pendingPasswordHash: null });
      await recordSuccess(q, user.id, at);
      const method = (await listFactors(q, user.id)).find((f) => f.id === factorId)?.factorType ?? null;
      if (t.pendingPasswordHash) {
        await setPassword(q, user.id, t.pendingPasswordHash, at, t.kind === 'recovery');
        await audit(q, meta, {
          eventId: 'identity.password.set',
          customerId: user.customerId,
          isSuccess: true,
          details: { purpose: t.kind },
        });
      }
      if (t.kind === 'activation') {
        await activateUser(q, user.id, at);
        await voidLinkTokens(q, user.id, 'activation', at);
        await audit(q, meta, {
          eventId: 'identity.activation',
          customerId: user.customerId,
          isSuccess: true,
        });
      }
      if (t.kind === 'recovery') {
        await voidLinkTokens(q, user.id, 'recovery', at);
        await audit(q, meta, {
          eventId: 'identity.password.reset',
          customerId: user.customerId,
          isSuccess: true,
        });
      }
      const sessionExpiresAt = new Date(at.getTime() + identityLimits.sessionTokenMs);
      let sessionToken: string | null = null;
      if (t.kind !== 'stepup') {
        sessionToken = randomToken('20');
        await insertSessionToken(q, {
          tokenHash: hashToken(sessionToken),
          userId: user.id,
          createdAt: at,
          expiresAt: sessionExpiresAt,
          // RFC 8176 method names: a text message is 'sms', a voice call 'tel'; both with the password are 'mfa'.
          amr: ['pwd', ...(method === 'sms' ? ['sms'] : method === 'call' ? ['tel'] : []), 'mfa'],
        });
        await audit(q, meta, {
          eventId: 'identity.signin',
          customerId: user.customerId,
          isSuccess: true,
          details: { mfaSendMethod: method, mfaUsedForLogin: true, purpose: t.kind },
        });
      } else {
        await audit(q, meta, {
          eventId: 'identity.stepup.verified',
          customerId: user.customerId,
          isSuccess: true,
          details: { mfaSendMethod: method },
        });
      }
      return { ok: true, transaction: { ...t, status: 'SUCCESS' }, sessionToken, sessionExpiresAt };
    });
  }

  /** Locks the account for 30 minutes and ends its open sign-ins; the caller's transaction commits it. */
  async function lockAccount(
    q: Queryable,
    user: UserRow,
    at: Date,
    meta: RequestMeta,
    cause: 'PASSWORD' | 'CODE',
  ) {
    await lockOpenSignIns(q, user.id, at);
    await audit(q, meta, {
      eventId: 'identity.lockout',
      customerId: user.customerId,
      isSuccess: true,
      failureReason: `${cause}_FAILURES`,
      details: {
        lockedUntil: new Date(at.getTime() + identityLimits.lockoutMs).toISOString(),
        failures: identityLimits.lockoutThreshold,
      },
    });
  }

  const isLocked = (user: UserRow) =>
    user.lockedUntil !== null && user.lockedUntil.getTime() > now().getTime();

  const sendFailure = (outcome: Extract<SendOutcome, { ok: false }>) =>
    oktaErrors.rateLimited(outcome.decision ?? { retryAfterSeconds: outcome.retryAfterSeconds });

  /* The Okta API --------------------------------------------------------------------------------- */

  return {
    limits: identityLimits,
    passwordRules,

    /** Per-username limit of /api/v1/authn (4 a second); throws 429 E0000047 above it. */
    async takeUsernameRate(username: string): Promise<RateDecision> {
      const decision = await (
        await counters()
      ).take(
        `authn:${hashToken(username.trim().toLowerCase())}`,
        identityLimits.authnPerUsernamePerSecond,
        1000,
      );
      if (!decision.allowed) throw oktaErrors.rateLimited(decision);
      return decision;
    },

    /**
     * {username, password}: MFA_REQUIRED, or 401 E0000004 alike for every failure. Unknown usernames
     * create no state; a wrong password counts towards the account's lockout.
     */
    async primaryAuth(username: string, password: string, meta: RequestMeta): Promise<AuthnTransaction> {
      const login = username.trim().toLowerCase();
      const user = await findUserByLogin(db, login);
      const failure = async (reason: string, customerId: string | null) => {
        await db.transaction((q) =>
          audit(q, meta, { eventId: 'identity.signin', customerId, isSuccess: false, failureReason: reason }),
        );
        return oktaErrors.authenticationFailed();
      };
      if (!user) {
        await verifyAgainstDummy(password);
        throw await failure('UNKNOWN_USER', null);
      }
      const passwordOk = await verifyPasswordHash(user, password);
      if (isLocked(user)) throw await failure('LOCKED_OUT', user.customerId);
      if (user.status !== 'ACTIVE') throw await failure('NOT_ACTIVE', user.customerId);
      if (!passwordOk) {
        const at = now();
        await db.transaction(async (q) => {
          const { lockedNow } = await recordFailure(
            q,
            user.id,
            identityLimits.lockoutThreshold,
            new Date(at.getTime() + identityLimits.lockoutMs),
          );
          await audit(q, meta, {
            eventId: 'identity.signin',
            customerId: user.customerId,
            isSuccess: false,
            failureReason: 'WRONG_PASSWORD',
          });
          if (lockedNow) await lockAccount(q, user, at, meta, 'PASSWORD');
        });
        throw oktaErrors.authenticationFailed();
      }
      const { stateToken, transaction } = await db.transaction((q) =>
        createTransaction(q, user.id, 'signin', 'MFA_REQUIRED'),
      );
      return mfaRequired(stateToken, transaction, user);
    },

    /** {token} from the activation email: PASSWORD_RESET (ACCOUNT_ACTIVATION), or 401 E0000004. */
    async activationToken(token: string, meta: RequestMeta): Promise<AuthnTransaction> {
      const started = await db.transaction(async (q) => {
        const used = await consumeLinkToken(q, hashToken(token), 'activation', now());
        const user = used ? await findUserById(q, used.userId, true) : null;
        if (!user || user.status !== 'PROVISIONED') {
          await audit(q, meta, {
            eventId: 'identity.activation',
            customerId: user?.customerId ?? null,
            isSuccess: false,
            failureReason: 'INVALID_TOKEN',
          });
          return null;
        }
        const created = await createTransaction(q, user.id, 'activation', 'PASSWORD_RESET');
        return { ...created, user };
      });
      if (!started) throw oktaErrors.authenticationFailed();
      return passwordReset(started.stateToken, started.transaction, started.user);
    },

    /** {recoveryToken} from the reset email: PASSWORD_RESET (PASSWORD), or 403 E0000105. */
    async recoveryToken(token: string, meta: RequestMeta): Promise<AuthnTransaction> {
      const started = await db.transaction(async (q) => {
        const used = await consumeLinkToken(q, hashToken(token), 'recovery', now());
        const user = used ? await findUserById(q, used.userId, true) : null;
        if (!user || user.status !== 'ACTIVE') {
          await audit(q, meta, {
            eventId: 'identity.password.reset',
            customerId: user?.customerId ?? null,
            isSuccess: false,
            failureReason: 'INVALID_TOKEN',
          });
          return null;
        }
        const created = await createTransaction(q, user.id, 'recovery', 'PASSWORD_RESET');
        return { ...created, user };
      });
      if (!started) throw oktaErrors.invalidRecoveryToken();
      return passwordReset(started.stateToken, started.transaction, started.user);
    },

    /**
     * The new password of an activation or recovery. Checked against the rules now (403 E0000014 with the
     * rule); stored with the transaction and applied only once the second factor is verified.
     */
    async resetPassword(
      stateToken: string,
      newPassword: string,
      meta: RequestMeta,
    ): Promise<AuthnTransaction> {
      const t = await liveTransaction(db, stateToken);
      if (t.status !== 'PASSWORD_RESET') throw oktaErrors.wrongState();
      const user = await userOf(db, t);
      const problem = passwordProblem(newPassword, await passwordRules(), user.login);
      if (problem) {
        await db.transaction((q) =>
          audit(q, meta, {
            eventId: 'identity.password.set',
            customerId: user.customerId,
            isSuccess: false,
            failureReason: 'PASSWORD_POLICY',
            details: { rule: problem, purpose: t.kind },
          }),
        );
        throw oktaErrors.credentialsUpdateFailed(problem);
      }
      const hash = await hashPassword(newPassword);
      const updated = await db.transaction(async (q) => {
        const fresh = await liveTransaction(q, stateToken, true);
        if (fresh.status !== 'PASSWORD_RESET') throw oktaErrors.wrongState();
        await updateTransaction(q, fresh.id, { pendingPasswordHash: hash, status: 'MFA_REQUIRED' });
        return { ...fresh, status: 'MFA_REQUIRED' as const };
      });
      return mfaRequired(stateToken, updated, user);
    },

    /** Without passCode: sends a code (MFA_CHALLENGE). With it: SUCCESS + sessionToken, or 403 E0000068. */
    async verifyFactor(
      factorId: string,
      stateToken: string,
      passCode: string | undefined,
      meta: RequestMeta,
    ): Promise<AuthnTransaction> {
      const t = await liveTransaction(db, stateToken);
      const user = await userOf(db, t);
      const factor = await factorOf(user, factorId);
      if (passCode === undefined) {
        if (t.status !== 'MFA_REQUIRED' && t.status !== 'MFA_CHALLENGE') throw oktaErrors.wrongState();
        const sent = await issueCode(t, user, factor, meta);
        if (!sent.ok) throw sendFailure(sent);
        return mfaChallenge(stateToken, sent.transaction, user, factor);
      }
      const checked = await checkCode(t.id, factor.id, passCode, meta, false);
      if (!checked.ok) {
        if (checked.reason === 'wrong-state') {
          // A lock that happened meanwhile ended the transaction: say so as Okta would.
          await liveTransaction(db, stateToken);
          throw oktaErrors.wrongState();
        }
        throw oktaErrors.invalidPasscode(checked.cause);
      }
      const fresh = (await findUserById(db, user.id)) ?? user;
      return {
        status: 'SUCCESS',
        sessionToken: checked.sessionToken ?? '',
        expiresAt: checked.sessionExpiresAt.toISOString(),
        _embedded: { user: userJson(fresh) },
      };
    },

    /** A new code for the challenged factor; the old one dies. */
    async resend(factorId: string, stateToken: string, meta: RequestMeta): Promise<AuthnTransaction> {
      const t = await liveTransaction(db, stateToken);
      const user = await userOf(db, t);
      const factor = await factorOf(user, factorId);
      if (t.status !== 'MFA_CHALLENGE' || t.factorId !== factor.id) throw oktaErrors.wrongState();
      const sent = await issueCode(t, user, factor, meta);
      if (!sent.ok) throw sendFailure(sent);
      return mfaChallenge(stateToken, sent.transaction, user, factor);
    },

    /** MFA_CHALLENGE back to MFA_REQUIRED (another factor); the code sent dies. */
    async previous(stateToken: string): Promise<AuthnTransaction> {
      const t = await db.transaction(async (q) => {
        const fresh = await liveTransaction(q, stateToken, true);
        if (fresh.status !== 'MFA_CHALLENGE') throw oktaErrors.wrongState();
        await killCodes(q, fresh.id, now());
        await updateTransaction(q, fresh.id, { status: 'MFA_REQUIRED', factorId: null });
        return { ...fresh, status: 'MFA_REQUIRED' as const, factorId: null };
      });
      return mfaRequired(stateToken, t, await userOf(db, t));
    },

    /** Ends the transaction; its stateToken and code stop working. */
    async cancel(stateToken: string): Promise<AuthnTransaction> {
      await db.transaction(async (q) => {
        const t = await liveTransaction(q, stateToken, true);
        await killCodes(q, t.id, now());
        await updateTransaction(q, t.id, { status: 'CANCELLED', completedAt: now() });
      });
      return { status: 'UNAUTHENTICATED' };
    },

    /** Answer of recovery/password: the same for every username. */
    recoveryChallenge(): AuthnTransaction {
      return {
        status: 'RECOVERY_CHALLENGE',
        factorResult: 'WAITING',
        factorType: 'EMAIL',
        recoveryType: 'PASSWORD',
      };
    },

    /* Shared with the identity service (registration, portal) ---------------------------------- */

    /** Creates a link token (activation 24 hours, recovery 60 minutes) that voids the user's older ones. */
    async issueLinkToken(q: Queryable, userId: string, kind: 'activation' | 'recovery'): Promise<string> {
      const token = randomToken();
      const createdAt = now();
      await insertLinkToken(q, {
        tokenHash: hashToken(token),
        userId,
        kind,
        createdAt,
        expiresAt: new Date(
          createdAt.getTime() +
            (kind === 'activation' ? identityLimits.activationTokenMs : identityLimits.recoveryTokenMs),
        ),
      });
      return token;
    },

    issueCode,
    checkCode,
    matchCode,
    createTransaction,
    isLocked,
    verifyPasswordHash,
    lockAccount,
    audit,
  };
}
