import { callApi, isApiCallError } from '../../lib/api-client';

/** Ends the transaction so its state token stops working. Never throws: it is tidy-up. */
export async function cancelTransaction(stateToken: string): Promise<void> {
  try {
    // The identity contracts load only now: the signed-in pages that may call this rarely do.
    const { cancelCall } = await import('@portal/contracts/identity');
    await callApi(cancelCall, { body: { stateToken } });
  } catch (error) {
    if (!isApiCallError(error)) console.warn('Cancelling the sign-in transaction failed');
  }
}
