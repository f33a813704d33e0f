import type { ActivityItem } from '@portal/contracts/account-activity';
import type { RequestMeta } from '../identity';
import { listActivity } from './activity';
import { createContactChangesService } from './contact-changes.service';
import type { PortalContext } from './context';
import { createSignInSessionsService } from './sign-in-sessions.service';
import { createSharedViewService, type SharedViewService } from './shared-view.service';

/**
 * What the portal module offers the modules above it (ctx.services.portal): the contact centre's view of a
 * customer's own account activity, and the changes it makes for them down the customer's own code paths,
 * so the audit rows, the insurer's events and the emails are those of the customer's own change (issue 41).
 * `meta.agent` names the staff member and their reason.
 */
export interface PortalService {
  /** The newest `count` items of the customer's account activity, as their own list shows them. */
  recentActivity(customerId: string, count: number): Promise<ActivityItem[]>;
  /** Signs the customer out everywhere: how many sign-ins ended (0: none was live, nothing written). */
  endAllSessions(customerId: string, meta: RequestMeta): Promise<{ ended: number }>;
  /** Changes the sign-in and record email; both addresses are told. Or why not. */
  changeEmail(
    customerId: string,
    email: string,
    meta: RequestMeta,
  ): Promise<'changed' | 'no-account' | 'same' | 'in-use'>;
  /**
   * The contact centre asks to see what the customer sees (issue 41 point 6): checks and uses up the
   * customer's code, and answers a one-time link to their portal, read only.
   */
  startSharedView: SharedViewService['start'];
}

export function createPortalService(ctx: PortalContext): PortalService {
  const contactChanges = createContactChangesService(ctx);
  const signInSessions = createSignInSessionsService(ctx);
  const sharedViews = createSharedViewService(ctx);
  return {
    startSharedView: (staff, customerId, code) => sharedViews.start(staff, customerId, code),
    recentActivity: async (customerId, count) =>
      (await listActivity(ctx.db, customerId, { pageSize: count })).items,
    endAllSessions: (customerId, meta) => signInSessions.endAllFor(customerId, meta),
    changeEmail: (customerId, email, meta) => contactChanges.changeEmailFor(customerId, email, meta),
  };
}
