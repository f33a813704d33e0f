import { writeAudit, type AuditRow } from '../../../platform/audit';
import type { Clock } from '../../../platform/clock';
import { counterStore, type CounterStore } from '../../../platform/counters';
import type { Db, Queryable } from '../../../platform/db';
import { metricsOf, type SignInOutcome } from '../../../platform/metrics';
import type { IdentityContext } from '../context';
import { notifier, type Notifier, type NotifyLog } from '../../../platform/notifier';
import { hashPassword, verifyPassword } from '../../../platform/password-hash';
import type { UserRow } from '../identity.repository';
import type { MfaKeys } from '../mfa/secret-box';
import { rulesFromSettings, type PasswordRules } from '../password-policy';
import type { RelyingParty } from '../mfa/webauthn';
import { randomToken } from '../secrets';

/** Who is asking: for audit rows and the log lines of messages sent. */
export interface RequestMeta {
  correlationId?: string;
  sessionId?: string;
  log?: NotifyLog;
  /** The client's address (request.ip, after TRUST_PROXY): what the per-address limits count. */
  clientAddress?: string;
  /**
   * A member of the insurer's staff acting for the customer (issue 41): every audit row of the step names
   * them (`on_behalf_of`, `staff:<subject>`) and carries their reason (a ticket or call reference).
   */
  agent?: { onBehalfOf: string; reason: string };
}

/** Writes one audit row from the server, stamped with the clock's time and the request's ids. */
type Audit = (q: Queryable, meta: RequestMeta, row: Omit<AuditRow, 'source'>) => Promise<void>;

/** What every step of the authn transaction works with; nothing else reaches the steps. */
export interface AuthnContext {
  db: Db;
  clock: Clock;
  /** The identity base URL: Okta's links point under it. */
  orgUrl: string;
  /** PUBLIC_URL: where emailed links lead. */
  publicUrl: string;
  /** MFA_ENCRYPTION_KEY (current) and MFA_ENCRYPTION_KEYS_PREVIOUS: authenticator-app secrets and the
   * backup codes' HMAC. */
  mfaKeys: MfaKeys;
  /** Passkeys' relying party: PUBLIC_URL's host name and the allowed origins. */
  rp: RelyingParty;
  counters: () => Promise<CounterStore>;
  notifier: () => Notifier;
  audit: Audit;
  /** The password rules of the site settings (content service). */
  passwordRules: () => Promise<PasswordRules>;
  /** Checks a password against the user's hash; false, after the same work, when there is none. */
  verifyPasswordHash: (user: UserRow, password: string) => Promise<boolean>;
  /** The work of a password check for an unknown user, so the answer takes the same time; always false. */
  verifyAgainstDummy: (password: string) => Promise<false>;
  /** Counts a sign-in step's outcome (portal_sign_in_outcomes_total), once what it wrote has committed. */
  signInOutcome: (outcome: SignInOutcome) => void;
  /** Ends every sign-in of the account but `keep`'s, in `q` (the oidc module's, through the composition). */
  endSessions: (q: Queryable, userId: string, keep: string | null) => Promise<number>;
}

/** A server audit row of a step, stamped with the request's ids and, when staff act, whom and why. */
function auditRowOf(meta: RequestMeta, row: Omit<AuditRow, 'source'>, at: Date): AuditRow {
  return {
    source: 'server',
    correlationId: meta.correlationId ?? null,
    sessionId: meta.sessionId ?? null,
    occurredAt: at,
    ...row,
    ...(meta.agent
      ? { onBehalfOf: meta.agent.onBehalfOf, details: { ...row.details, reason: meta.agent.reason } }
      : {}),
  };
}

export function authnContext(ctx: IdentityContext): AuthnContext {
  const { db, clock, config } = ctx;

  // Unknown users get the same argon2 work as known ones, so the answer takes the same time.
  let dummyHash: Promise<string> | undefined;
  const verifyAgainstDummy = async (password: string) => {
    dummyHash ??= hashPassword(randomToken());
    await verifyPassword(await dummyHash, password);
    return false as const;
  };

  return {
    db,
    clock,
    orgUrl: config.baseUrls.identity,
    publicUrl: config.publicUrl,
    mfaKeys: { current: config.mfaEncryptionKey, previous: config.mfaPreviousKeys },
    rp: config.webauthn,
    counters: () => counterStore(ctx),
    notifier: () => notifier(ctx),
    audit: (q, meta, row) => writeAudit(q, auditRowOf(meta, row, clock.now())),
    async passwordRules() {
      const settings = await ctx.services.content.getSiteSettings();
      return rulesFromSettings(settings.globalPasswordRequirementsBlock);
    },
    verifyPasswordHash: async (user, password) =>
      user.passwordHash ? verifyPassword(user.passwordHash, password) : verifyAgainstDummy(password),
    verifyAgainstDummy,
    signInOutcome: (outcome) => metricsOf(ctx).signIns.inc({ outcome }),
    endSessions: (q, userId, keep) => ctx.services.sessions.endOthers(q, userId, keep),
  };
}
