import type { CustomerNotification, NotificationStatusUpdate } from '@portal/contracts/notifications';
import { writeAudit } from '../../platform/audit';
import { HttpError, notFound } from '../../platform/errors';
import type { ModuleContext } from '../../platform/module';
import { demoPortfolio } from '../../db/demo-portfolio';
import { demoSeedActor } from '../integration/versioned';
import {
  listCustomerNotifications,
  resetDemoNotifications,
  updateNotificationStatus,
} from './notifications.repository';

export interface NotificationCaller {
  customerId: string;
  onBehalfOf: string | null;
  sessionId: string | null;
  correlationId: string;
}

/** The customer's welcome and splash notifications (spec customer-data §4 Modal notifications). */
export function createNotificationsService(ctx: ModuleContext) {
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

/**
 * The demo notification campaigns (dated from the seed's today) and each demo customer's, through the
 * integration API's path, then NEW again: an assignment keeps its status, but a demo shows its modals
 * afresh each day.
 */
export async function seedNotifications(ctx: ModuleContext): Promise<void> {
  const now = ctx.clock.now();
  const version = now.toISOString();
  const { integration } = ctx.services;
  const portfolio = demoPortfolio(now);
  for (const { notificationId, ...n } of portfolio.notifications) {
    await integration.upsert('notification', notificationId, { ...n, version }, demoSeedActor);
  }
  for (const c of portfolio.customers) {
    for (const notificationId of c.notifications) {
      await integration.upsert(
        'customerNotification',
        `${c.customerId}/${notificationId}`,
        { version },
        demoSeedActor,
      );
    }
    await resetDemoNotifications(ctx.db, c.customerId, now);
  }
}
