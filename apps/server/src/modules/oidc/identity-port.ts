import type { OidcContext } from './context';

/** Who a one-time sessionToken signed in. */
interface SignedInUser {
  userId: string;
  customerId: string;
  login: string;
  /** Authentication methods used, Okta style ('pwd', 'sms', 'call', ...), when the identity service knows. */
  amr: string[];
}

/** The identity user behind a provider account id (`sub`). */
export interface IdentityUser {
  id: string;
  /** The customer's email address, which they proved by the activation link. */
  login: string;
  firstName: string;
  lastName: string;
  customerId: string | null;
  /** False for locked, suspended or deprovisioned users: no new tokens for them. */
  active: boolean;
}

/** What the OpenID module needs from the identity service (built by the identity module). */
export interface IdentityPort {
  consumeSessionToken(token: string): Promise<SignedInUser | null>;
  getUser(userId: string): Promise<IdentityUser | null>;
}

/** The identity module's service, seen through the few calls this module makes. */
export function identityPort(ctx: OidcContext): IdentityPort {
  return {
    async consumeSessionToken(token) {
      const r = await ctx.services.identity.consumeSessionToken(token);
      if (!r) return null;
      // A sessionToken is only ever issued after the password and a one-time code were both checked, so
      // 'mfa' holds even for a token recorded before the methods were.
      return {
        userId: r.userId,
        customerId: r.customerId,
        login: r.login,
        amr: r.amr.length > 0 ? r.amr : ['pwd', 'mfa'],
      };
    },
    async getUser(userId) {
      const u = await ctx.services.identity.getUser(userId);
      if (!u) return null;
      return {
        id: u.id,
        login: u.login,
        firstName: u.firstName,
        lastName: u.lastName,
        customerId: u.customerId,
        active: u.status === 'ACTIVE',
      };
    },
  };
}
