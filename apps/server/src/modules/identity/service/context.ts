import type { Clock } from '../../../platform/clock';
import type { Config } from '../../../config';
import type { Db } from '../../../platform/db';
import type { IdentityContext } from '../context';
import { notifier, type OutboundMessage } from '../../../platform/notifier';
import type { Authn, RequestMeta } from '../authn.service';
import type { FactorRow } from '../identity.repository';

/** What every step of the identity service works with (one function per step in service/). */
export interface IdentityServiceContext {
  ctx: IdentityContext;
  db: Db;
  clock: Clock;
  config: Config;
  now: () => Date;
  /** Queues a message; a failure is logged by the notifier and never changes the answer. */
  send: (message: OutboundMessage, meta: RequestMeta) => Promise<void>;
  /** The factor a code goes to: a text to the mobile; a call to the landline when there is one. */
  pickFactor: (factors: FactorRow[], method: 'sms' | 'call') => FactorRow | undefined;
  authn: Authn;
}

export function identityServiceContext(ctx: IdentityContext, authn: Authn): IdentityServiceContext {
  const { db, clock, config } = ctx;
  return {
    ctx,
    db,
    clock,
    config,
    authn,
    now: () => clock.now(),
    send: async (message, meta) => {
      try {
        await notifier(ctx).enqueue(message, { log: meta.log });
      } catch {
        // Already logged (masked) by the notifier. Answers must not differ by whether an email went out.
      }
    },
    pickFactor: (factors, method) =>
      method === 'sms'
        ? factors.find((f) => f.factorType === 'sms')
        : (factors.find((f) => f.factorType === 'call' && !f.isMobile) ??
          factors.find((f) => f.factorType === 'call')),
  };
}
