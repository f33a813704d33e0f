import { getMessageCall, type CustomerMessage } from '@portal/contracts/message';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, callApi } from '../../../lib/api-client';
import { useAppQueryClient } from '../../../session/query-client';

/**
 * GET {document}/api/v1/message/{customerId}/{messageId}: the message, which the service marks read on every
 * device as it answers. 404 (not the customer's, expired or withdrawn) and 400 (not a message id) are null.
 */
const messageQuery = (customerId: string, messageId: string) =>
  queryOptions({
    queryKey: ['message', 'one', customerId, messageId] as const,
    queryFn: ({ signal }): Promise<CustomerMessage | null> =>
      callApi(getMessageCall, { params: { customerId, messageId }, signal }).catch((error: unknown) => {
        if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
        throw error;
      }),
  });

export const useMessage = (customerId: string | undefined, messageId: string) =>
  useQuery(
    { ...messageQuery(customerId ?? '', messageId), enabled: !!customerId && messageId !== '' },
    useAppQueryClient(),
  );
