import type { FastifyInstance } from 'fastify';
import {
  agencyCalls,
  customerCalls,
  customerNotificationCalls,
  notificationCalls,
  policyCalls,
  quoteCalls,
} from '@portal/contracts/integration/records';
import { deleteCustomerMessageCall, putCustomerMessageCall } from '@portal/contracts/integration/messages';
import type { IntegrationContext } from './context';
import { serveRecord } from './record-routes';

/** The records' PUT (upsert) and DELETE (removal, with `?version=`) calls, each pair one line. */
export async function recordRoutes(app: FastifyInstance, ctx: IntegrationContext): Promise<void> {
  serveRecord(app, ctx, agencyCalls, 'agency', (p) => p['agencyId']!);
  serveRecord(app, ctx, customerCalls, 'customer', (p) => p['customerId']!);
  serveRecord(app, ctx, policyCalls, 'policy', (p) => p['policyNumber']!);
  serveRecord(app, ctx, quoteCalls, 'quote', (p) => p['quoteNumber']!);
  serveRecord(app, ctx, notificationCalls, 'notification', (p) => p['notificationId']!);
  serveRecord(
    app,
    ctx,
    customerNotificationCalls,
    'customerNotification',
    (p) => `${p['customerId']}/${p['notificationId']}`,
  );
  serveRecord(
    app,
    ctx,
    { put: putCustomerMessageCall, remove: deleteCustomerMessageCall },
    'customerMessage',
    (p) => `${p['customerId']}/${p['messageId']}`,
  );
}
