import { z } from 'zod/mini';

/**
 * Settings the server hands the SPA at page load, without inline script: a
 * `<meta name="portal-settings" content="{json}">` tag in index.html, also served at GET /app-settings.json.
 * Every base URL is absolute and has no trailing slash; each service's calls are `{baseUrl}{call.path}`.
 */
export const pageInitSettings = z.object({
  environment: z.enum(['development', 'production', 'test']),
  portalBaseUrl: z.url(),
  contentBaseUrl: z.url(),
  accountBaseUrl: z.url(),
  documentBaseUrl: z.url(),
  policyBaseUrl: z.url(),
  eventLoggingBaseUrl: z.url(),
  registrationBaseUrl: z.url(),
  identity: z.object({
    /** Okta-style org URL: {orgUrl}/api/v1/authn and friends. */
    orgUrl: z.url(),
    /** OpenID Connect issuer: {orgUrl}/oauth2/default. */
    issuer: z.url(),
    clientId: z.string().check(z.minLength(1)),
    redirectUri: z.url(),
    postLogoutRedirectUri: z.url(),
    scopes: z.array(z.string()).check(z.minLength(1)),
    /** The spec's two identity verification URLs (factor verify and OTP verify), with {factorId}. */
    mfaVerifyUrl: z.string().check(z.minLength(1)),
    otpVerifyUrl: z.string().check(z.minLength(1)),
  }),
  featureFlags: z.object({
    sdkKey: z.string().check(z.minLength(1)),
    /** Where the flag SDK fetches its definitions (our server serves them). */
    apiHost: z.url(),
  }),
});
export type PageInitSettings = z.infer<typeof pageInitSettings>;
