import type { CombinedPreferences } from '@portal/contracts/account';
import { useQuery } from '@tanstack/react-query';
import { useAppQueryClient } from '../../../session/query-client';
import { fetchUserPreferences, userPreferencesKey } from './get-user-preferences';

/**
 * The signed-in customer's preferences, read once for every preferences block on the page (one query),
 * and `keepSaved`, which puts what a successful update answered into that read, so each block shows it.
 */
export function useUserPreferences(customerId: string | undefined) {
  const queryClient = useAppQueryClient();
  const preferences = useQuery(
    {
      queryKey: userPreferencesKey(customerId ?? 'none'),
      queryFn: ({ signal }) => fetchUserPreferences(customerId!, signal),
      enabled: !!customerId,
      retry: false,
    },
    queryClient,
  );
  const keepSaved = (result: CombinedPreferences) => {
    if (!customerId || !preferences.data) return;
    queryClient.setQueryData(userPreferencesKey(customerId), { ...preferences.data, ...result });
  };
  return { preferences, keepSaved };
}
