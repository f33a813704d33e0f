import { getMarketingPreferencesCall, type MarketingPreferences } from '@portal/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { useAppQueryClient } from '../../../session/query-client';

/** GET {account}/api/v1/Preferences/{customerId}/marketing; a failure counts as no consent (logged). */
const marketingPreferencesQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['account', 'preferences', customerId, 'marketing'] as const,
    queryFn: ({ signal }) =>
      callApi(getMarketingPreferencesCall, {
        params: { customerId },
        signal,
      }).catch((error: unknown): MarketingPreferences | null => {
        console.warn('Marketing preferences could not be read', error instanceof Error ? error.name : '');
        return null;
      }),
  });

export const useMarketingPreferences = (customerId: string | undefined) =>
  useQuery({ ...marketingPreferencesQuery(customerId ?? ''), enabled: !!customerId }, useAppQueryClient());
