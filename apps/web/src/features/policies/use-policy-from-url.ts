import { isValidPolicyNumber, normalisePolicyNumber } from '@portal/contracts/field-rules';
import type { Policy } from '@portal/contracts/policy';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../../session/tokens';
import { usePolicyQuery } from './api/get-policy';

export type PolicyFromUrl =
  | { state: 'loading'; policyNumber: string | null }
  | { state: 'notFound'; policyNumber: string | null }
  | { state: 'error'; policyNumber: string }
  | { state: 'ready'; policyNumber: string; policy: Policy };

/** The policy the page's `?id=` names, if it is one of the signed-in customer's. */
export function usePolicyFromUrl(): PolicyFromUrl {
  const [params] = useSearchParams();
  const raw = params.get('id');
  const policyNumber = raw && isValidPolicyNumber(raw) ? normalisePolicyNumber(raw) : null;
  const user = useCurrentUser();
  const query = usePolicyQuery(user?.customerId, policyNumber);
  if (!policyNumber) return { state: 'notFound', policyNumber: raw };
  if (query.isPending) return { state: 'loading', policyNumber };
  if (query.isError) return { state: 'error', policyNumber };
  if (!query.data) return { state: 'notFound', policyNumber };
  return { state: 'ready', policyNumber, policy: query.data };
}
