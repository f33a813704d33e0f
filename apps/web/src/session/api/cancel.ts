import { cancelCall } from '@portal/contracts/identity';
import { callApi, isApiCallError } from '../../lib/api-client';

/** Ends the transaction so its state token stops working. Never throws: it is tidy-up. */
export async function cancelTransaction(stateToken: string): Promise<void> {
  try {
    await callApi(cancelCall, { body: { stateToken } });
  } catch (error) {
    if (!isApiCallError(error)) console.warn('Cancelling the sign-in transaction failed');
  }
}
