import type { CustomerNotification } from '@portal/contracts/notifications';
import { describe, expect, it } from 'vitest';
import { pickNotification } from './notification-modal';

const n = (overrides: Partial<CustomerNotification>): CustomerNotification =>
  ({
    id: 'C1-x',
    notificationId: 'x',
    type: 'SPLASH',
    status: 'NEW',
    startDate: null,
    endDate: null,
    ...overrides,
  }) as CustomerNotification;

describe('which notification the dashboard shows (spec §4)', () => {
  const now = new Date('2026-11-24T12:00:00Z');

  it('shows a waiting welcome first, else a splash inside its date window', () => {
    const splash = n({ id: 's', startDate: '2026-11-17T00:00:00Z', endDate: '2026-12-24T00:00:00Z' });
    const welcome = n({ id: 'w', type: 'WELCOME' });
    expect(pickNotification([splash, welcome], now)?.id).toBe('w');
    expect(pickNotification([splash], now)?.id).toBe('s');
  });

  it('shows nothing already shown or closed, or a splash outside its window', () => {
    expect(pickNotification([n({ type: 'WELCOME', status: 'SHOWN' })], now)).toBeUndefined();
    expect(pickNotification([n({ type: 'WELCOME', status: 'CLOSED' })], now)).toBeUndefined();
    expect(
      pickNotification([n({ startDate: '2026-06-01T00:00:00Z', endDate: '2026-08-01T00:00:00Z' })], now),
    ).toBeUndefined();
    expect(pickNotification([n({ startDate: '2026-12-01T00:00:00Z' })], now)).toBeUndefined();
  });
});
