import { describe, expect, it } from 'vitest';
import {
  customerNotification,
  notificationList,
  notificationStatusUpdate,
  updateNotificationStatusCall,
} from './notifications';

const welcome = { id: 'n-1', notificationId: 'welcome', type: 'WELCOME', status: 'NEW' };
const splash = {
  id: 'n-2',
  notificationId: 'splash-2026-spring',
  type: 'SPLASH',
  status: 'SHOWN',
  startDate: '2026-03-01T00:00:00Z',
  endDate: '2026-06-01T00:00:00Z',
};

describe('notifications', () => {
  it('accepts welcome and splash notifications, with or without a window', () => {
    expect(notificationList.safeParse([welcome, splash]).success).toBe(true);
    expect(customerNotification.safeParse({ ...welcome, startDate: null, endDate: null }).success).toBe(true);
  });

  it('refuses unknown types and statuses', () => {
    expect(customerNotification.safeParse({ ...welcome, type: 'LOGOUT' }).success).toBe(false);
    expect(customerNotification.safeParse({ ...welcome, status: 'READ' }).success).toBe(false);
  });

  it('patches to SHOWN or CLOSED only', () => {
    expect(notificationStatusUpdate.safeParse({ status: 'SHOWN' }).success).toBe(true);
    expect(notificationStatusUpdate.safeParse({ status: 'CLOSED' }).success).toBe(true);
    expect(notificationStatusUpdate.safeParse({ status: 'NEW' }).success).toBe(false);
    expect(notificationStatusUpdate.safeParse({}).success).toBe(false);
  });

  it('names both ids in the patch path', () => {
    expect(updateNotificationStatusCall.path).toBe(
      '/api/v1/customers/:customerId/notifications/:id/:notificationId',
    );
    const params = updateNotificationStatusCall.params!;
    expect(params.safeParse({ customerId: 'C1000001', id: 'n-1', notificationId: 'welcome' }).success).toBe(
      true,
    );
    expect(params.safeParse({ customerId: 'C1000001', id: 'n-1', notificationId: '../x' }).success).toBe(
      false,
    );
  });
});
