import { readSession, sessionKeys } from './storage-keys';
import { getCurrentUser } from './token-store';

/*
 * The contact centre's read-only view of a customer's account (issue 41 point 6, decision 039), as this
 * tab knows it: the token's onBehalfOf names a staff member (`staff:<subject>`), and the names for the
 * banner are kept in this tab's session storage. The calls it makes (open, pages, end) load on demand
 * (shared-view-calls.ts), so a customer's pages carry none of them.
 */

export interface SharedViewNames {
  customerName: string;
  staffName: string;
}

/** Whether this tab is the contact centre's read-only view. */
export function isSharedView(onBehalfOf: string | undefined = getCurrentUser()?.onBehalfOf): boolean {
  return onBehalfOf?.startsWith('staff:') === true;
}

/** The names for the banner, when this tab is a shared view. */
export function sharedViewNames(): SharedViewNames | null {
  try {
    const value = JSON.parse(
      readSession(sessionKeys.sharedView) ?? 'null',
    ) as Partial<SharedViewNames> | null;
    return typeof value?.customerName === 'string' && typeof value.staffName === 'string'
      ? { customerName: value.customerName, staffName: value.staffName }
      : null;
  } catch {
    return null;
  }
}

/** A page shown in a shared view is recorded for the customer's account activity (best effort). */
export function noteSharedViewPage(view: { path: string; title?: string | undefined }): void {
  if (!isSharedView() || !view.title) return;
  const { path, title } = view;
  void import('./shared-view-calls').then(
    (calls) => calls.recordSharedViewPage(path, title),
    () => undefined,
  );
}
