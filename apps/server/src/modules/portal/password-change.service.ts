import type { PasswordChanged, PasswordChangeErrorName, ProfileCodeSent } from '@portal/contracts/portal';
import { passwordChangeErrorCodes } from '@portal/contracts/portal';
import type { MfaMethod } from '@portal/contracts/profile';
import { writeAudit } from '../../platform/audit';
import { counterStore } from '../../platform/counters';
import type { PortalContext } from './context';
import { notifier, type NotifyLog } from '../../platform/notifier';
import { passwordChangedEmail } from './account-emails';

/** Password change attempts a customer may make in PASSWORD_CHANGE_WINDOW_MS, across every instance. */
const PASSWORD_CHANGE_LIMIT = 5;
const PASSWORD_CHANGE_WINDOW_MS = 15 * 60 * 1000;

/** The identity service's refusals as the spec's error names. */
const refusals = {
  code: 'MFA_CODE_INVALID',
  'current-password': 'CURRENT_PASSWORD_INVALID',
  'new-password': 'NEW_PASSWORD_INVALID',
} as const satisfies Record<string, PasswordChangeErrorName>;

/** A refusal with the spec's error code (customer-data §8): 1 code, 2 current password, 3 new password, 4 other. */
export class PasswordChangeRefusal extends Error {
  readonly errorCode: 1 | 2 | 3 | 4;
  constructor(
    readonly statusCode: 400 | 429,
    readonly code: PasswordChangeErrorName,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.errorCode = passwordChangeErrorCodes[code];
  }
}

export interface PasswordCaller {
  customerId: string;
  onBehalfOf: string | null;
  /** The identity user (token `sub`). */
  sub: string;
  /** The grant of the access token making the change: its session stays signed in. */
  grantId: string | null;
  sessionId: string | null;
  correlationId: string;
  log?: NotifyLog;
}

/**
 * The password change from the profile (spec customer-data §2 "Password details", §4, §8): a one-time code
 * by text or call (the same code rules and limits as sign-in), or the code of the customer's authenticator
 * app (the rules of the app at sign-in), then the code, the current password and the new one. A wrong current password (2) or a new password the rules refuse (3) leaves the code for another
 * try; only a change uses it up. Success uses the code, sets the password and its date, ends the customer's
 * other sessions and refresh tokens and writes the audit row in one transaction, then emails the customer
 * that their password changed. At most PASSWORD_CHANGE_LIMIT attempts in the window, whatever their outcome.
 */
export function createPasswordChangeService(ctx: PortalContext) {
  const identity = () => ctx.services.identity;

  return {
    async sendCode(
      customerId: string,
      method: MfaMethod,
      meta: { correlationId?: string; sessionId?: string; log?: NotifyLog } = {},
    ): Promise<ProfileCodeSent> {
      const sent = await identity().sendStepUpCode(customerId, method, meta);
      return { sent: true, expiresAt: sent.expiresAt.toISOString(), codeLength: sent.codeLength };
    },

    async change(
      caller: PasswordCaller,
      body: {
        mfaPassCode: string;
        currentPassword: string;
        newPassword: string;
        codeFrom?: 'sent' | 'app' | undefined;
      },
    ): Promise<PasswordChanged> {
      const meta = {
        correlationId: caller.correlationId,
        ...(caller.sessionId ? { sessionId: caller.sessionId } : {}),
        ...(caller.log ? { log: caller.log } : {}),
      };
      const counters = await counterStore(ctx);
      const decision = await counters.take(
        `password-change:${caller.customerId}`,
        PASSWORD_CHANGE_LIMIT,
        PASSWORD_CHANGE_WINDOW_MS,
      );
      if (!decision.allowed) {
        throw new PasswordChangeRefusal(
          429,
          'PASSWORD_CHANGE_FAILED',
          'Too many attempts. Please wait and try again.',
          {
            'Retry-After': String(decision.retryAfterSeconds),
          },
        );
      }
      const outcome = await identity().changePasswordWithStepUp(
        caller.customerId,
        {
          passCode: body.mfaPassCode,
          currentPassword: body.currentPassword,
          newPassword: body.newPassword,
          codeFrom: body.codeFrom ?? 'sent',
        },
        // In the transaction that uses the code up and sets the password.
        async (tx) => {
          const ended = await ctx.services.oidc.signInSessions.endOthers(tx, caller.sub, caller.grantId);
          await writeAudit(tx, {
            source: 'server',
            eventId: 'profile.password.changed',
            customerId: caller.customerId,
            onBehalfOf: caller.onBehalfOf,
            sessionId: caller.sessionId,
            correlationId: caller.correlationId,
            isSuccess: true,
            details: { otherSessionsEnded: ended },
          });
        },
        meta,
      );
      if (!outcome.ok) throw new PasswordChangeRefusal(400, refusals[outcome.refused], outcome.reason);
      const customer = await ctx.services.customers.get(caller.customerId);
      if (customer?.email) {
        await notifier(ctx)
          .enqueue(
            passwordChangedEmail({
              to: customer.email,
              customerId: caller.customerId,
              firstName: customer.firstName,
            }),
            { log: caller.log },
          )
          // The change is made; a failed email is logged by the notifier and must not undo it.
          .catch(() => undefined);
      }
      return { passwordLastUpdated: outcome.changedAt.toISOString() };
    },
  };
}
export type PasswordChangeService = ReturnType<typeof createPasswordChangeService>;
