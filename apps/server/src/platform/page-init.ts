import { pageInitSettings, type PageInitSettings } from '@portal/contracts/page-init';
import type { Config } from '../config';

/** The OpenID Connect client the SPA signs in with (registered by the identity module). */
export const spaClientId = 'portal-spa';

/**
 * The settings the SPA receives at page load, from configuration. Checked against the contract here so a
 * bad base URL stops the start rather than breaking every page.
 */
export function buildPageInitSettings(config: Config): PageInitSettings {
  const orgUrl = config.baseUrls.identity;
  // Okta has one verify endpoint for factors and for one-time codes; the SPA holds both names.
  const verifyUrl = `${orgUrl}/api/v1/authn/factors/{factorId}/verify`;
  return pageInitSettings.parse({
    environment: config.env,
    portalBaseUrl: config.baseUrls.portal,
    contentBaseUrl: config.baseUrls.content,
    accountBaseUrl: config.baseUrls.account,
    documentBaseUrl: config.baseUrls.document,
    policyBaseUrl: config.baseUrls.policy,
    eventLoggingBaseUrl: config.baseUrls.eventlog,
    registrationBaseUrl: config.baseUrls.registration,
    identity: {
      orgUrl,
      issuer: `${orgUrl}/oauth2/default`,
      clientId: spaClientId,
      redirectUri: `${config.publicUrl}/login/callback`,
      postLogoutRedirectUri: `${config.publicUrl}/login`,
      scopes: ['openid', 'portal.customer'],
      mfaVerifyUrl: verifyUrl,
      otpVerifyUrl: verifyUrl,
    },
    featureFlags: { sdkKey: config.featureFlagSdkKey, apiHost: config.baseUrls.content },
  });
}
