import type { FastifyInstance } from 'fastify';
import {
  getCorrespondencePreferencesCall,
  getMarketingPreferencesCall,
  getUserPreferencesCall,
  statusTokenCall,
  updatePreferencesCall,
} from '@portal/contracts/account';
import { sendContactMessageCall } from '@portal/contracts/contact';
import { listNotificationsCall, updateNotificationStatusCall } from '@portal/contracts/notifications';
import { getMfaDisplayNameCall, getProfileCall } from '@portal/contracts/profile';
import type { AccountContext } from './context';
import { route } from '../../platform/route';
import type { ContactService } from './contact.service';
import type { NotificationsService } from './notifications.service';
import type { PreferencesService } from './preferences.service';
import type { ProfileService } from './profile.service';

/**
 * Account service HTTP routes, one `route()` line per contract call: the contract's `auth` flag brings the
 * bearer guard and the customer-scope check, and the path, body and answer are checked against it.
 */
export async function accountRoutes(
  app: FastifyInstance,
  ctx: AccountContext,
  preferences: PreferencesService,
  profile: ProfileService,
  notifications: NotificationsService,
  contact: ContactService,
) {
  // The status-token call has an empty body; the SPA still sends Content-Type application/json.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    defaultJson(request, text, done);
  });

  route(app, getUserPreferencesCall, ({ customer }) => preferences.user(customer.customerId));

  route(app, getMarketingPreferencesCall, ({ customer }) => preferences.marketing(customer.customerId));

  route(app, getCorrespondencePreferencesCall, ({ customer }) =>
    preferences.correspondence(customer.customerId),
  );

  route(app, updatePreferencesCall, ({ customer, body, request }) =>
    preferences.update(
      {
        customerId: customer.customerId,
        onBehalfOf: customer.onBehalfOf,
        sessionId: request.sessionId ?? null,
        correlationId: request.correlationId,
      },
      body,
    ),
  );

  route(app, statusTokenCall, async ({ customer, reply }) => {
    const issued = await ctx.services.oidc.signStatusToken(customer.customerId);
    reply.header('Cache-Control', 'no-store');
    return { token: issued.token, expiresAt: issued.expiresAt.toISOString() };
  });

  route(app, getProfileCall, ({ customer }) => profile.get(customer.customerId));

  route(app, getMfaDisplayNameCall, ({ customer, params }) =>
    profile.mfaDisplayName(customer.customerId, params.method),
  );

  route(app, listNotificationsCall, ({ customer }) => notifications.list(customer.customerId));

  route(app, updateNotificationStatusCall, ({ customer, params, body, request }) =>
    notifications.setStatus(
      {
        customerId: customer.customerId,
        onBehalfOf: customer.onBehalfOf,
        sessionId: request.sessionId ?? null,
        correlationId: request.correlationId,
      },
      params.id,
      params.notificationId,
      body,
    ),
  );

  route(app, sendContactMessageCall, ({ customer, body, request }) =>
    contact.send(
      {
        customerId: customer.customerId,
        onBehalfOf: customer.onBehalfOf,
        sessionId: request.sessionId ?? null,
        correlationId: request.correlationId,
        log: request.log,
      },
      body,
    ),
  );
}
