import { listNotificationsCall, type CustomerNotification } from '@portal/contracts/notifications';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { useAppQueryClient } from '../../../session/query-client';

/** GET {account}/api/v1/customers/{customerId}/notifications; a failure shows no modal (and is logged). */
export const notificationsQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['account', 'notifications', customerId] as const,
    queryFn: ({ signal }) =>
      callApi(listNotificationsCall, { params: { customerId }, signal }).catch((): CustomerNotification[] => {
        console.warn('Notifications could not be read');
        return [];
      }),
    staleTime: Infinity,
  });

export const useNotifications = (customerId: string | undefined) =>
  useQuery({ ...notificationsQuery(customerId ?? ''), enabled: !!customerId }, useAppQueryClient());
