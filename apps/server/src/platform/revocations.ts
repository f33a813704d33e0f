import type { Queryable } from './db';

/**
 * Whether a customer's sign-in (a grant of the OpenID provider, the `gid` of its access tokens) still
 * lives: `ended` once deleted (signed out, a session ended from "Where you're signed in", a password change
 * or reset, the account closed or erased), `expired` once it reached its lifetime. The last two never
 * change.
 */
export type SessionState = 'live' | 'ended' | 'expired';

/**
 * What the token guard asks of the module that issues sign-ins (the oidc module's `revocations`), so the
 * platform names none of its tables.
 */
export interface RevocationsPort {
  /** The sign-in's state now, read from the shared store. */
  sessionState(grantId: string, now: Date): Promise<SessionState>;
  /** Moves "last used" of the sign-in on (decision 025); a failure only leaves it older, never throws. */
  noteUse(grantId: string, now: Date): Promise<void>;
  /**
   * Hears of sign-ins ended on any instance as the change commits. `onGap` when some may have been missed
   * (the listening connection was lost and is back). Answers a function that stops listening; undefined
   * when the database cannot announce them (the guard's half-second check is then the bound).
   */
  watch(
    onEnded: (grantIds: readonly string[]) => void,
    onGap: () => void,
  ): Promise<(() => Promise<void>) | undefined>;
}

/**
 * Ending an account's sign-ins, for a module below the one that issues them (a password reset in the
 * identity module ends every other session): the `sessions` service, given by the oidc module through
 * the composition (modules/index.ts), so the identity module names no module above it.
 */
export interface SessionsPort {
  /** Ends every sign-in of the identity account but `keepGrantId`'s, in the caller's transaction. */
  endOthers(tx: Queryable, accountId: string, keepGrantId: string | null): Promise<number>;
}
