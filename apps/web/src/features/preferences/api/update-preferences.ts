import {
  updatePreferencesCall,
  type CombinedPreferences,
  type UpdatePreferencesBody,
} from '@portal/contracts/account';
import { callApi } from '../../../lib/api-client';

/** PATCH {account}/api/v1/Preferences/{customerId} with marketingPreferences and/or correspondencePreferences. */
export function updatePreferences(
  customerId: string,
  body: UpdatePreferencesBody,
): Promise<CombinedPreferences> {
  return callApi(updatePreferencesCall, { params: { customerId }, body });
}
