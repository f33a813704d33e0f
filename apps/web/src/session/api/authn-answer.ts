import { z } from 'zod/mini';
import {
  authnTransaction,
  oktaAppFactor,
  oktaFactor,
  type AuthnTransaction,
} from '@portal/contracts/identity';

/**
 * The identity provider's classic Authentication API (Okta's shapes), as the sign-in pages use it: one
 * file per call beside this one. Failures reject with the client's typed errors; each page has its own
 * message for a wrong password, a wrong code or a throttled request (identity-failure.ts).
 */

/**
 * A transaction status our contract does not list but a real Okta org may send (LOCKED_OUT,
 * PASSWORD_EXPIRED, PASSWORD_WARN, MFA_ENROLL, ...). It is accepted so the page can say something useful
 * instead of failing on the shape; sessionStatusOf maps it to 'unknown'.
 */
const otherStatusTransaction = z.looseObject({
  status: z.string().check(z.minLength(1)),
  stateToken: z.optional(z.string()),
});
type OtherStatusTransaction = z.infer<typeof otherStatusTransaction>;
export type AuthnAnswer = AuthnTransaction | OtherStatusTransaction;

const anyTransaction = z.union([authnTransaction, otherStatusTransaction]);

/** The contract's call with its 200 answer widened to other provider statuses (see above). */
export function widened<C extends { responses: Record<number, z.ZodMiniType> }>(call: C): C {
  return { ...call, responses: { ...call.responses, 200: anyTransaction } };
}

const knownFactor = z.union([oktaFactor, oktaAppFactor]);

/**
 * The answer as one of the statuses our contract knows, with its full shape; null for any other. An
 * MFA_REQUIRED that lists a factor type this version cannot use (a passkey before the SPA offers it,
 * anything a real Okta org adds) is kept without that factor rather than refused.
 */
export function knownTransaction(answer: AuthnAnswer): AuthnTransaction | null {
  const parsed = authnTransaction.safeParse(answer);
  if (parsed.success) return parsed.data;
  const embedded = (answer as { _embedded?: unknown })._embedded;
  if (answer.status !== 'MFA_REQUIRED' || !embedded || typeof embedded !== 'object') return null;
  const factors = (embedded as { factors?: unknown }).factors;
  if (!Array.isArray(factors)) return null;
  const usable = factors.filter((f) => knownFactor.safeParse(f).success);
  const again = authnTransaction.safeParse({ ...answer, _embedded: { ...embedded, factors: usable } });
  return again.success ? again.data : null;
}
