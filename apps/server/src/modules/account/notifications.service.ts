import type { CustomerNotification, NotificationStatusUpdate } from '@portal/contracts/notifications';
import { writeAudit } from '../../platform/audit';
import { HttpError, notFound } from '../../platform/errors';
import type { AccountContext } from './context';
import { listCustomerNotifications, updateNotificationStatus } from './notifications.repository';

export interface NotificationCaller {
  customerId: string;
  onBehalfOf: string | null;
  sessionId: string | null;
  correlationId: string;
}

/** The customer's welcome and splash notifications (spec customer-data §4 Modal notifications). */
export function createNotificationsService(ctx: AccountContext) {
  return {
    list: (customerId: string): Promise<CustomerNotification[]> =>
      listCustomerNotifications(ctx.db, customerId),

    /** NEW -> SHOWN when its modal opens, -> CLOSED when it closes; audited with the change. */
    async setStatus(
      caller: NotificationCaller,
      id: string,
      notificationId: string,
      update: NotificationStatusUpdate,
    ): Promise<CustomerNotification> {
      return ctx.db.transaction(async (tx) => {
        const result = await updateNotificationStatus(
          tx,
          caller.customerId,
          id,
          notificationId,
          update.status,
          ctx.clock.now(),
        );
        if (result === null) throw notFound('There is no such notification.');
        if (result === 'closed') {
          throw new HttpError(409, 'NOTIFICATION_CLOSED', 'That notification has been closed already.');
        }
        await writeAudit(tx, {
          source: 'server',
          eventId: `notification.${update.status.toLowerCase()}`,
          customerId: caller.customerId,
          onBehalfOf: caller.onBehalfOf,
          sessionId: caller.sessionId,
          correlationId: caller.correlationId,
          isSuccess: true,
          details: { notificationId, type: result.type },
        });
        return result;
      });
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
