import { useEffect, useSyncExternalStore } from 'react';

/**
 * A count the signed-in customer's pages share (documents not opened, messages unread: issue 40), read by
 * `load` (which brings its call in with import(), so public pages carry none of it): `refresh` reads it
 * again (a failed read leaves what was there), and `useCount` gives it for this customer, or null before
 * it is read, reading it again whenever `refreshKey` changes.
 */
export function customerCountStore<T>(load: (customerId: string) => Promise<T>) {
  let snapshot: { customerId: string; value: T } | null = null;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const current = () => snapshot;

  function refresh(customerId: string): void {
    load(customerId).then(
      (value) => {
        snapshot = { customerId, value };
        for (const listener of listeners) listener();
      },
      () => undefined,
    );
  }

  function useCount(customerId: string | undefined, refreshKey?: string): T | null {
    const shared = useSyncExternalStore(subscribe, current, current);
    useEffect(() => {
      if (customerId && refreshKey !== undefined) refresh(customerId);
    }, [customerId, refreshKey]);
    return shared && customerId && shared.customerId === customerId ? shared.value : null;
  }

  return { refresh, useCount };
}
