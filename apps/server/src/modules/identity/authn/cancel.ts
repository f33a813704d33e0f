import type { AuthnTransaction } from '@portal/contracts';
import { killCodes, updateTransaction } from '../identity.repository';
import type { AuthnContext } from './context';
import { liveTransaction } from './transactions';

/** Ends the transaction; its stateToken and code stop working. */
export async function cancel(c: AuthnContext, stateToken: string): Promise<AuthnTransaction> {
  await c.db.transaction(async (q) => {
    const t = await liveTransaction(c, q, stateToken, true);
    await killCodes(q, t.id, c.clock.now());
    await updateTransaction(q, t.id, { status: 'CANCELLED', completedAt: c.clock.now() });
  });
  return { status: 'UNAUTHENTICATED' };
}
