import type { ModalContent } from '@portal/contracts/content';
import type { CustomerNotification } from '@portal/contracts/notifications';
import { useEffect, useState } from 'react';
import { ContentModal } from '../../content/content-modal';
import { useOptionalSiteSettings } from '../../content/use-site-settings';
import { removeSession, sessionKeys, writeSession } from '../../session/storage-keys';
import { notificationsQuery, useNotifications } from './api/list-notifications';
import { updateNotificationStatus } from './api/update-notification-status';
import { useAppQueryClient } from '../../session/query-client';

/**
 * Spec §4: the dashboard shows the welcome modal when a welcome notification is waiting, or the splash
 * (welcome back) modal when one is waiting and today is inside its date window. Each is shown once: it is
 * marked SHOWN when it opens (its id kept in session storage while open) and CLOSED when it closes.
 */
export function pickNotification(
  list: readonly CustomerNotification[],
  now: Date,
): CustomerNotification | undefined {
  const waiting = list.filter((n) => n.status === 'NEW');
  const welcome = waiting.find((n) => n.type === 'WELCOME');
  if (welcome) return welcome;
  return waiting.find(
    (n) =>
      n.type === 'SPLASH' &&
      (!n.startDate || Date.parse(n.startDate) <= now.getTime()) &&
      (!n.endDate || now.getTime() < Date.parse(n.endDate)),
  );
}

export function NotificationModal({ customerId }: { customerId: string }) {
  const settings = useOptionalSiteSettings();
  const queryClient = useAppQueryClient();
  const { data } = useNotifications(customerId);
  // undefined: not decided yet; null: nothing to show (or closed). Decided once, when the list arrives.
  const [current, setCurrent] = useState<CustomerNotification | null | undefined>(undefined);
  if (current === undefined && data) setCurrent(pickNotification(data, new Date()) ?? null);
  const shownId = current?.id;

  useEffect(() => {
    if (!current) return;
    writeSession(sessionKeys.notificationId, current.notificationId);
    void updateNotificationStatus(customerId, current, 'SHOWN');
    // Marked once per notification, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shownId, customerId]);

  if (!current) return null;
  const content = (
    current.type === 'WELCOME' ? settings?.welcomeModalWindowBlock : settings?.welcomeBackWindowBlock
  ) as ModalContent | undefined;
  if (!content) return null;

  const close = () => {
    const closing = current;
    setCurrent(null);
    removeSession(sessionKeys.notificationId);
    queryClient.setQueryData(notificationsQuery(customerId).queryKey, (list) =>
      list?.map((n) => (n.id === closing.id ? { ...n, status: 'CLOSED' as const } : n)),
    );
    void updateNotificationStatus(customerId, closing, 'CLOSED');
  };

  return <ContentModal content={content} onClose={close} />;
}
