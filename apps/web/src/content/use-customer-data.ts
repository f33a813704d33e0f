import { useOptionalSiteSettings } from './use-site-settings';
import { useUserData, type UserDataState } from '../session/user-data/user-data';

/** The session's user data with the cache lifetime content sets (userCacheTTL minutes). */
export function useCustomerData(): UserDataState {
  const settings = useOptionalSiteSettings();
  return useUserData(settings?.userCacheTTL ?? undefined);
}
