import { z } from 'zod/mini';
import { defineCall, errorEnvelope, named } from './call';
import { customerCallErrors, customerIdValue, isoDateTime, opaqueId } from './common';

/**
 * Account service: the customer's notifications, shown by the dashboard as welcome and splash (welcome
 * back) modals (spec customer-data §3 Notification, §4 Modal notifications).
 *
 * The spec names the PATCH path's two values only "{a}/{b}". Ours: `id` is the customer's notification
 * (one row per customer and notification), `notificationId` the notification it was made from (the
 * campaign, which names the modal content). The SPA keeps `notificationId` in session storage while the
 * modal is open and patches `/notifications/{id}/{notificationId}`; both must match one of the
 * customer's notifications or the answer is 404.
 */

export const notificationTypes = ['WELCOME', 'SPLASH'] as const;
export const notificationType = z.enum(notificationTypes);
export type NotificationType = z.infer<typeof notificationType>;

export const notificationStatuses = ['NEW', 'SHOWN', 'CLOSED'] as const;
export const notificationStatus = z.enum(notificationStatuses);
export type NotificationStatus = z.infer<typeof notificationStatus>;

export const customerNotification = named(
  z.object({
    id: opaqueId,
    notificationId: opaqueId,
    type: notificationType,
    status: notificationStatus,
    /** A splash modal shows from startDate (inclusive) to endDate (exclusive); absent means open-ended. */
    startDate: z.nullish(isoDateTime),
    endDate: z.nullish(isoDateTime),
  }),
  'Notification',
);
export type CustomerNotification = z.infer<typeof customerNotification>;

export const notificationList = named(z.array(customerNotification), 'NotificationList');

/** NEW -> SHOWN when the modal opens, -> CLOSED when it closes. A notification never goes back to NEW. */
export const notificationStatusUpdate = named(
  z.strictObject({ status: z.enum(['SHOWN', 'CLOSED']) }),
  'NotificationStatusUpdate',
);
export type NotificationStatusUpdate = z.infer<typeof notificationStatusUpdate>;

export const listNotificationsCall = defineCall({
  id: 'notifications.list',
  summary:
    "The customer's welcome and splash notifications with their status. 404 when the customer id is not the token's.",
  service: 'account',
  method: 'GET',
  path: '/api/v1/customers/:customerId/notifications',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue }),
  responses: { 200: notificationList, ...customerCallErrors },
});

export const updateNotificationStatusCall = defineCall({
  id: 'notifications.updateStatus',
  summary:
    "Marks a notification SHOWN (its modal opened) or CLOSED (its modal closed); answers the notification. 404 when it is not the customer's or the customer id is not the token's; 409 when a CLOSED notification would be SHOWN again.",
  service: 'account',
  method: 'PATCH',
  path: '/api/v1/customers/:customerId/notifications/:id/:notificationId',
  auth: true,
  params: z.strictObject({ customerId: customerIdValue, id: opaqueId, notificationId: opaqueId }),
  body: notificationStatusUpdate,
  responses: { 200: customerNotification, ...customerCallErrors, 409: errorEnvelope },
});
