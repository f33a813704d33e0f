import {
  listNotificationsCall,
  updateNotificationStatusCall,
  type CustomerNotification,
} from '@portal/contracts/notifications';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** GET {account}/api/v1/customers/{customerId}/notifications; a failure shows no modal (and is logged). */
export const notificationsQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['account', 'notifications', customerId] as const,
    queryFn: ({ signal }) =>
      callApi(listNotificationsCall, { params: { customerId }, signal, handleError: () => undefined }).catch(
        (): CustomerNotification[] => {
          console.warn('Notifications could not be read');
          return [];
        },
      ),
    staleTime: Infinity,
  });

export const useNotifications = (customerId: string | undefined) =>
  useQuery({ ...notificationsQuery(customerId ?? ''), enabled: !!customerId });

/** PATCH .../notifications/{id}/{notificationId} with SHOWN or CLOSED; a failure is logged, never shown. */
export function updateNotificationStatus(
  customerId: string,
  notification: Pick<CustomerNotification, 'id' | 'notificationId'>,
  status: 'SHOWN' | 'CLOSED',
): Promise<void> {
  return callApi(updateNotificationStatusCall, {
    params: { customerId, id: notification.id, notificationId: notification.notificationId },
    body: { status },
    handleError: () => undefined,
  }).then(
    () => undefined,
    () => console.warn(`Notification status ${status} could not be saved`),
  );
}
