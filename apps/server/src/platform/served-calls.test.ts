import { allCalls } from '@portal/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { registeredRoutes, servedCalls } from './route';

/**
 * Contract calls the SPA makes that no route serves yet, each with the issue that builds it. The list only
 * shrinks: a call listed here that is served fails the test, so it is taken off when it lands.
 */
const NOT_YET_SERVED: Record<string, string> = {};

/**
 * Routes that serve no contract call, with what serves them: "METHOD /path", or "* /path" for a library
 * that takes every method. Kept short: anything the SPA calls as an API has a contract.
 */
const WITHOUT_CONTRACT: Record<string, string> = {
  '* /oauth2/default': 'the OpenID provider (oidc-provider), Okta-compatible; see docs/decisions',
  '* /oauth2/default/*': 'the OpenID provider (oidc-provider)',
  'GET /healthz': 'platform: liveness for the load balancer',
  'GET /readyz': 'platform: readiness (database reachable)',
  'GET /api/docs': 'platform: this OpenAPI document',
  'GET /api/docs/': 'platform: this OpenAPI document',
  'GET /api/v1/content/media/:file': 'static: content images',
  'GET /app-settings.json': 'static: the SPA page-init settings',
  'GET /*': 'static: the SPA and its assets',
  'GET /api/v1/authn': "identity: Okta's 405/404 for methods and paths it does not serve",
  'GET /api/v1/authn/*': "identity: Okta's 404 for paths it does not serve",
  'GET /api/v1/sessions': "identity: Okta's 404 for paths it does not serve",
  'GET /api/v1/sessions/*': "identity: Okta's 404 for paths it does not serve",
  'GET /api/v1/users': "identity: Okta's 404 (Okta's users API is not served here)",
  'GET /api/v1/users/*': "identity: Okta's 404 (Okta's users API is not served here)",
  'GET /policy-system/:action': "development only: the stand-in for the insurer's policy system",
  'GET /dev/outbox': 'development only: the outbox of messages not sent',
  'GET /dev/outbox/api': 'development only: the outbox of messages not sent',
  '* /staff-idp':
    "development only: the stand-in for the insurer's workforce identity provider (oidc-provider)",
  '* /staff-idp/*': 'development only: the stand-in workforce identity provider (oidc-provider)',
  'GET /staff/sign-in': 'staff: starts the OpenID Connect sign-in at the workforce provider (a redirect)',
  'GET /staff/callback': "staff: the workforce provider's redirect back (sets the staff session cookie)",
};

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('what is served is what is documented', () => {
  it('serves every contract call through route(), but the named few not built yet', () => {
    const served = new Set(servedCalls(t.app).map((c) => c.id));
    const missing = allCalls()
      .map((c) => c.id)
      .filter((id) => !served.has(id) && !(id in NOT_YET_SERVED));
    expect(missing, 'contract calls with no route').toEqual([]);
    const landed = Object.keys(NOT_YET_SERVED).filter((id) => served.has(id));
    expect(landed, 'served now: take them off NOT_YET_SERVED').toEqual([]);
  });

  it('has no route without a contract, but the named library and static routes', () => {
    const unexplained = registeredRoutes(t.app)
      .filter((r) => !r.call)
      .map((r) => `${r.method} ${r.url}`)
      .filter((key) => !(key in WITHOUT_CONTRACT) && !(`* ${key.split(' ')[1]}` in WITHOUT_CONTRACT));
    expect(unexplained, 'routes with no contract call').toEqual([]);
  });

  it('documents at /api/docs exactly the calls it serves', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    const doc = res.json<{ paths: Record<string, Record<string, { operationId: string }>> }>();
    const documented = Object.values(doc.paths)
      .flatMap((item) => Object.values(item).map((op) => op.operationId))
      .sort();
    const served = servedCalls(t.app)
      .map((c) => c.id)
      .sort();
    expect(documented).toEqual(served);
  });
});
