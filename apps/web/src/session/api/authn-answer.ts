import { z } from 'zod/mini';
import { authnTransaction, type AuthnTransaction } from '@portal/contracts/identity';

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

/** True when the answer is one of the statuses our contract knows, with its full shape. */
export function isKnownTransaction(answer: AuthnAnswer): answer is AuthnTransaction {
  return authnTransaction.safeParse(answer).success;
}
