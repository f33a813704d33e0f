import { requestPasswordResetCall } from '@portal/contracts/registration';
import { ApiError, callApi } from '../../../lib/api-client';

/** POST /Registration/resetPassword {email}. The answer is the same whether or not an account exists. */
export async function requestPasswordReset(email: string): Promise<'sent' | 'rateLimited' | 'failed'> {
  try {
    await callApi(requestPasswordResetCall, { body: { email } });
    return 'sent';
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return 'rateLimited';
    return 'failed';
  }
}
