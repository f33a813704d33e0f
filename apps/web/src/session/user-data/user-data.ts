import type { CustomerProfile } from '@portal/contracts/profile';
import type { Agency, Quote } from '@portal/contracts/policy';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { readSession, removeSession, sessionKeys, writeSession } from '../storage-keys';
import { useCurrentUser } from '../tokens';
import { fetchAgency } from './api/get-agency';
import { fetchAgencyWithFallback } from './api/get-agency-with-fallback';
import { fetchMutualDirect } from './api/get-mutual-direct';
import { fetchProfile } from './api/get-profile';
import { fetchPolicySummaries, type PolicyGroups } from './api/list-policies';
import { fetchQuotes } from './api/list-quotes';
import { queryClient, useAppQueryClient } from '../query-client';

/**
 * The signed-in customer's data held for the session (spec customer-data §3 "User data held for the
 * session", §7, §9): read after sign-in with six calls in parallel, kept in session storage with the time
 * it was read for `userCacheTTL` minutes (default 1; 0 keeps nothing), read again when stale. A failing
 * call gives no profile, empty policy lists, and null for the rest; `policiesFailed` says which.
 */
interface UserData {
  email: string | null;
  profile: CustomerProfile | null;
  policies: PolicyGroups;
  policiesFailed: boolean;
  quotes: Quote[] | null;
  agency: Agency | null;
  agencyWithFallback: Agency | null;
  agencyForMutualDirect: Agency | null;
}

interface Stored {
  customerId: string;
  savedAt: number;
  data: UserData;
}

/** Spec §9: default cache lifetime when settings give none. */
const DEFAULT_USER_CACHE_TTL_MINUTES = 1;

const userDataKey = (customerId: string) => ['user-data', customerId] as const;

function readStored(customerId: string, ttlMs: number, now: number): UserData | undefined {
  if (ttlMs <= 0) return undefined;
  try {
    const stored = JSON.parse(readSession(sessionKeys.userData) ?? 'null') as Stored | null;
    if (!stored || stored.customerId !== customerId || now - stored.savedAt >= ttlMs) return undefined;
    return stored.data;
  } catch {
    return undefined;
  }
}

function store(customerId: string, data: UserData, ttlMs: number): void {
  if (ttlMs <= 0) {
    removeSession(sessionKeys.userData);
    return;
  }
  writeSession(
    sessionKeys.userData,
    JSON.stringify({ customerId, savedAt: Date.now(), data } satisfies Stored),
  );
}

/** Reads all of the customer's data: the six calls of spec §7 at once. */
async function loadUserData(customerId: string, signal?: AbortSignal): Promise<UserData> {
  const [profile, policies, quotes, agency, agencyWithFallback, agencyForMutualDirect] = await Promise.all([
    fetchProfile(customerId, signal),
    fetchPolicySummaries(customerId, signal),
    fetchQuotes(customerId, signal),
    fetchAgency(customerId, signal),
    fetchAgencyWithFallback(customerId, signal),
    fetchMutualDirect(signal),
  ]);
  const { failed, ...groups } = policies;
  return {
    email: profile?.emailAddress ?? null,
    profile,
    policies: groups,
    policiesFailed: failed,
    quotes,
    agency,
    agencyWithFallback,
    agencyForMutualDirect,
  };
}

function userDataQuery(customerId: string, ttlMinutes: number = DEFAULT_USER_CACHE_TTL_MINUTES) {
  const ttlMs = Math.max(0, ttlMinutes) * 60_000;
  return queryOptions({
    queryKey: userDataKey(customerId),
    queryFn: async ({ signal }) => {
      const cached = readStored(customerId, ttlMs, Date.now());
      if (cached) return cached;
      const data = await loadUserData(customerId, signal);
      // A call that failed is not kept for the cache lifetime: the next page load asks again.
      if (data.profile !== null && !data.policiesFailed && data.quotes !== null)
        store(customerId, data, ttlMs);
      else removeSession(sessionKeys.userData);
      return data;
    },
    staleTime: ttlMs,
    gcTime: Math.max(ttlMs, 60_000),
  });
}

/**
 * Starts reading the customer's data without waiting for it (the route loader of every signed-in page),
 * so the six calls run beside the page's own code rather than after the page has rendered. Nothing is
 * read while the data in memory or in session storage is fresh; the page's hook then finds the answer.
 */
export function prefetchUserData(
  customerId: string,
  ttlMinutes?: number,
  client: QueryClient = queryClient,
): void {
  if (!customerId) return;
  void client.prefetchQuery(userDataQuery(customerId, ttlMinutes));
}

export interface UserDataState {
  data: UserData | undefined;
  isLoading: boolean;
  /** Reads the policy summaries again (spec §7); the rest of the user data is kept. */
  refetchPolicySummaries(): Promise<void>;
  /** Puts a change the customer just made (a new email address or mobile number) into the profile held. */
  updateProfile(patch: Partial<NonNullable<UserData['profile']>>): void;
}

/** The signed-in customer's user data; undefined while signed out or loading. */
export function useUserData(ttlMinutes?: number): UserDataState {
  const user = useCurrentUser();
  const queryClient = useAppQueryClient();
  const customerId = user?.customerId ?? '';
  const query = useQuery(
    { ...userDataQuery(customerId, ttlMinutes), enabled: customerId !== '' },
    queryClient,
  );
  return {
    data: query.data,
    isLoading: customerId !== '' && query.isPending,
    async refetchPolicySummaries() {
      if (!customerId) return;
      const { failed, ...groups } = await fetchPolicySummaries(customerId);
      queryClient.setQueryData(userDataKey(customerId), (old: UserData | undefined) => {
        if (!old) return old;
        const next = { ...old, policies: groups, policiesFailed: failed };
        store(customerId, next, Math.max(0, ttlMinutes ?? DEFAULT_USER_CACHE_TTL_MINUTES) * 60_000);
        return next;
      });
    },
    updateProfile(patch) {
      if (!customerId) return;
      queryClient.setQueryData(userDataKey(customerId), (old: UserData | undefined) => {
        if (!old?.profile) return old;
        const profile = { ...old.profile, ...patch };
        const next = { ...old, profile, email: profile.emailAddress };
        store(customerId, next, Math.max(0, ttlMinutes ?? DEFAULT_USER_CACHE_TTL_MINUTES) * 60_000);
        return next;
      });
    },
  };
}
