/*
 * The console's addresses, under its router's basename (/staff), and what a page is opened with: the
 * reason given for it (a ticket or call reference), carried in the history entry's state and never in the
 * address, so it is not in the server's logs or the browser's history list. A page opened without one
 * (a bookmark, a new tab) asks for it first.
 */

export const consolePaths = {
  find: '/',
  signedOut: '/signed-out',
  record: (customerId: string) => `/customers/${encodeURIComponent(customerId)}`,
  auditTrail: (customerId: string) => `/customers/${encodeURIComponent(customerId)}/audit-trail`,
};

/** Where the server's sign-in starts (outside the console's router). */
export const signInPath = '/staff/sign-in';

export interface ReasonState {
  reason: string;
}

/** The reason a history entry's state carries, if any. */
export function reasonOf(state: unknown): string | undefined {
  const reason = (state as Partial<ReasonState> | null)?.reason;
  return typeof reason === 'string' && reason.trim() !== '' ? reason : undefined;
}
