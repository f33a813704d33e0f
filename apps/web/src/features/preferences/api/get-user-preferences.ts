import { getUserPreferencesCall, type UserPreferences } from '@portal/contracts/account';
import { callApi } from '../../../lib/api-client';

/** Query key of the signed-in customer's preferences (cleared with the rest of the customer data at sign-out). */
export const userPreferencesKey = (customerId: string) =>
  ['account', 'preferences', customerId, 'user'] as const;

/** GET {account}/api/v1/Preferences/{customerId}/user. Failures are handed back (the step decides). */
export function fetchUserPreferences(customerId: string, signal?: AbortSignal): Promise<UserPreferences> {
  return callApi(getUserPreferencesCall, { params: { customerId }, ...(signal ? { signal } : {}) });
}
