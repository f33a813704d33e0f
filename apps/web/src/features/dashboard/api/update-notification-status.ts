import { updateNotificationStatusCall, type CustomerNotification } from '@portal/contracts/notifications';
import { callApi } from '../../../lib/api-client';

/** PATCH .../notifications/{id}/{notificationId} with SHOWN or CLOSED; a failure is logged, never shown. */
export function updateNotificationStatus(
  customerId: string,
  notification: Pick<CustomerNotification, 'id' | 'notificationId'>,
  status: 'SHOWN' | 'CLOSED',
): Promise<void> {
  return callApi(updateNotificationStatusCall, {
    params: { customerId, id: notification.id, notificationId: notification.notificationId },
    body: { status },
  }).then(
    () => undefined,
    () => console.warn(`Notification status ${status} could not be saved`),
  );
}
