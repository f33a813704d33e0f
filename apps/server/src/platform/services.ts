import type { Queryable } from './db';
import type { SessionsPort } from './revocations';

/** Erasing a customer in every module (decision 020), for the module the insurer erases through. */
interface ErasureService {
  /** Runs every module's erasure in the caller's transaction; answers whether the customer was held. */
  eraseCustomer(tx: Queryable, customerId: string): Promise<boolean>;
}

/**
 * The services modules expose to each other. Modules do not read each other's tables; they call these.
 * Each module adds its own entries by declaration merging in its index.ts:
 *
 *   declare module '../../platform/services' { interface Services { content: ContentService } }
 *
 * A few are ports: a module below declares what it needs, one above implements it, and the composition
 * (modules/index.ts) joins the two, so no module names one above it. These two are the platform's:
 */
export interface Services {
  /** Every module's erasure, top of the map down (the integration module's customer DELETE). */
  erasure: ErasureService;
  /** Ending an account's sign-ins, from the module that issues them (oidc), for those below it. */
  sessions: SessionsPort;
}
