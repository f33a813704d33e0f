import type { FastifyInstance } from 'fastify';
import {
  agencyCalls,
  customerCalls,
  customerNotificationCalls,
  notificationCalls,
  policyCalls,
  quoteCalls,
} from '@portal/contracts/integration/records';
import type { ModuleContext } from '../../platform/module';
import { route } from '../../platform/route';
import type { IntegrationActor } from './versioned';

/** The records' PUT (upsert) and DELETE (removal, with `?version=`) calls, each one line into the service. */
export async function recordRoutes(app: FastifyInstance, ctx: ModuleContext): Promise<void> {
  const { integration } = ctx.services;
  const actor = (client: { clientId: string } | undefined, request: { correlationId: string }) =>
    ({ clientId: client!.clientId, correlationId: request.correlationId }) satisfies IntegrationActor;

  route(app, agencyCalls.put, ({ params, body, client, request }) =>
    integration.upsert('agency', params.agencyId, body, actor(client, request)),
  );
  route(app, agencyCalls.remove, ({ params, query, client, request }) =>
    integration.remove('agency', params.agencyId, query.version, actor(client, request)),
  );
  route(app, customerCalls.put, ({ params, body, client, request }) =>
    integration.upsert('customer', params.customerId, body, actor(client, request)),
  );
  route(app, customerCalls.remove, ({ params, query, client, request }) =>
    integration.remove('customer', params.customerId, query.version, actor(client, request)),
  );
  route(app, policyCalls.put, ({ params, body, client, request }) =>
    integration.upsert('policy', params.policyNumber, body, actor(client, request)),
  );
  route(app, policyCalls.remove, ({ params, query, client, request }) =>
    integration.remove('policy', params.policyNumber, query.version, actor(client, request)),
  );
  route(app, quoteCalls.put, ({ params, body, client, request }) =>
    integration.upsert('quote', params.quoteNumber, body, actor(client, request)),
  );
  route(app, quoteCalls.remove, ({ params, query, client, request }) =>
    integration.remove('quote', params.quoteNumber, query.version, actor(client, request)),
  );
  route(app, notificationCalls.put, ({ params, body, client, request }) =>
    integration.upsert('notification', params.notificationId, body, actor(client, request)),
  );
  route(app, notificationCalls.remove, ({ params, query, client, request }) =>
    integration.remove('notification', params.notificationId, query.version, actor(client, request)),
  );
  route(app, customerNotificationCalls.put, ({ params, body, client, request }) =>
    integration.upsert(
      'customerNotification',
      `${params.customerId}/${params.notificationId}`,
      body,
      actor(client, request),
    ),
  );
  route(app, customerNotificationCalls.remove, ({ params, query, client, request }) =>
    integration.remove(
      'customerNotification',
      `${params.customerId}/${params.notificationId}`,
      query.version,
      actor(client, request),
    ),
  );
}
