import { listAccountActivityCall } from '@portal/contracts/account-activity';
import type { FastifyInstance } from 'fastify';
import type { PortalContext } from './context';
import { route } from '../../platform/route';
import { listActivity } from './activity';

/** "Your account activity": the signed-in customer's own history, a page at a time (decision 027). */
export async function activityRoutes(app: FastifyInstance, ctx: PortalContext) {
  route(app, listAccountActivityCall, ({ customer, query }) =>
    listActivity(ctx.db, customer.customerId, query),
  );
}
