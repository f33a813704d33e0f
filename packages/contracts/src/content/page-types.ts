/** The page types content can name; each has its component in the SPA (web app/page-registry.tsx). */
export const pageTypes = [
  'RegistrationPage',
  'ConfirmationPage',
  'PasswordPage',
  'AuthenticationVerificationPage',
  'AuthenticationChallengePage',
  'LoginPage',
  'ResetPasswordPage',
  'DashboardPage',
  'StandardPageTemplate',
  'RedirectPage',
  'PolicyRedirectPage',
  'AccountPage',
  'RegistrationMarketingPreferences',
  'FormSuccessPage',
  'PolicyPage',
  'MessagesPage',
  'ErrorPage',
  'MaintenancePage',
] as const;
export type PageType = (typeof pageTypes)[number];
