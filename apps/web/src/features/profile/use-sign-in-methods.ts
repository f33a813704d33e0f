import { useQuery } from '@tanstack/react-query';
import { useAppQueryClient } from '../../session/query-client';
import { signInMethodsQuery } from './api/sign-in-methods';

/**
 * The customer's sign-in methods, as the profile's passkeys, app and backup-code blocks read them (one
 * query shared by the three), and `refresh` to read them again after a change.
 */
export function useSignInMethods(customerId: string | undefined) {
  const queryClient = useAppQueryClient();
  const methods = useQuery(
    { ...signInMethodsQuery(customerId ?? 'none'), enabled: !!customerId },
    queryClient,
  );
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: signInMethodsQuery(customerId ?? 'none').queryKey });
  return { methods, refresh };
}
