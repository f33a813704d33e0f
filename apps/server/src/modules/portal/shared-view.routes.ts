import {
  createShareCodeCall,
  endSharedViewCall,
  openSharedViewCall,
  recordSharedViewPageCall,
} from '@portal/contracts/screen-share';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthenticatedCustomer } from '../../platform/auth-guard';
import { route } from '../../platform/route';
import type { SharedViewService } from './shared-view.service';

/**
 * "Share your screen with us" (issue 41 point 6): the customer's code, the view link's exchange, and the
 * view's own page views and end. Answers carry a code or a token, so nothing keeps them.
 */
export async function sharedViewRoutes(app: FastifyInstance, views: SharedViewService) {
  const caller = (customer: AuthenticatedCustomer, request: FastifyRequest) => ({
    customer,
    sessionId: request.sessionId ?? null,
    correlationId: request.correlationId,
  });
  await app.register(async (scoped) => {
    scoped.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    route(scoped, createShareCodeCall, ({ customer, request }) =>
      views.createCode(caller(customer, request)),
    );
    route(scoped, openSharedViewCall, ({ body, request }) =>
      views.open(body.ticket, {
        userAgent: request.headers['user-agent'],
        address: request.ip,
        correlationId: request.correlationId,
      }),
    );
    route(scoped, recordSharedViewPageCall, async ({ customer, body, request }) => {
      await views.recordPage(caller(customer, request), body);
      return undefined;
    });
    route(scoped, endSharedViewCall, async ({ customer, request }) => {
      await views.end(caller(customer, request));
      return undefined;
    });
  });
}
