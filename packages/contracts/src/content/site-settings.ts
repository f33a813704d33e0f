import { z } from 'zod/mini';
import { contentPath, richText } from './building-blocks';
import { modalContent } from './calls-to-action';

// ---------------------------------------------------------------------------------------------------
// Site settings
// ---------------------------------------------------------------------------------------------------

/**
 * Password rules, switched by settings (spec: minimum length, lowercase, uppercase, number, special, and
 * always no whitespace). The row texts are the requirement list shown beside a new-password field;
 * `minLengthText` carries `{minLength}`.
 */
export const passwordRequirements = z.object({
  minPasswordLength: z.number().check(z.int(), z.minimum(8), z.maximum(64)),
  lowercaseChar: z.boolean(),
  uppercaseChar: z.boolean(),
  numberChar: z.boolean(),
  specialChar: z.boolean(),
  heading: z.string().check(z.minLength(1)),
  minLengthText: z.string().check(z.minLength(1)),
  lowercaseText: z.string().check(z.minLength(1)),
  uppercaseText: z.string().check(z.minLength(1)),
  numberText: z.string().check(z.minLength(1)),
  specialText: z.string().check(z.minLength(1)),
  noSpacesText: z.string().check(z.minLength(1)),
  /** Extra guidance under the list (for example "Try three random words"). */
  guidance: z.optional(richText),
});
export type PasswordRequirements = z.infer<typeof passwordRequirements>;

export const serviceAlert = z.object({
  visible: z.boolean(),
  title: z.string(),
  message: richText,
});
export type ServiceAlert = z.infer<typeof serviceAlert>;

export const siteSettings = z.looseObject({
  id: z.string().check(z.minLength(1)),
  type: z.literal('SiteSettings'),
  siteName: z.string().check(z.minLength(1)),
  loginPage: contentPath,
  accountRootPage: contentPath,
  dashboardPage: contentPath,
  /** The offer to set up a passkey after registration (issue 25); without it, no offer is made. */
  passkeyOfferPage: z.optional(contentPath),
  maintenancePage: contentPath,
  errorPage: contentPath,
  /** Freephone number for urgent help, as displayed (for example "0800 123 4567"). */
  infinityPhoneTracking: z
    .string()
    .check(z.regex(/^[0-9][0-9 ]{6,18}[0-9]$/, 'A UK phone number in digits and spaces')),
  globalPasswordRequirementsBlock: passwordRequirements,
  /** Product code (PHL, PAH, PHR, NGH, NGB, MPC, ...) -> the label customers see. */
  policyTypeMappingText: z.record(
    z.string().check(z.regex(/^[A-Z]{2,5}$/)),
    z.string().check(z.minLength(1)),
  ),
  /** Minutes the SPA may reuse user data from session storage; 0 disables the cache. */
  userCacheTTL: z.number().check(z.int(), z.minimum(0), z.maximum(1440)),
  logOutModalWindowBlock: modalContent,
  welcomeModalWindowBlock: modalContent,
  welcomeBackWindowBlock: modalContent,
  gwInterstitialModalWindowBlock: modalContent,
  gwInterstitialBespokeModalWindowBlock: modalContent,
  /** Idle minutes before the inactivity modal; 0 disables it. */
  idleTimeoutMinutes: z.number().check(z.int(), z.minimum(0), z.maximum(720)),
  idleCountdownSeconds: z._default(z.number().check(z.int(), z.positive(), z.maximum(600)), 60),
  /** Inactivity modal texts; `bodyText` carries `{seconds}`. */
  idleModal: z.object({
    heading: z.string().check(z.minLength(1)),
    bodyText: z.string().check(z.minLength(1)),
    staySignedInText: z.string().check(z.minLength(1)),
    signOutText: z.string().check(z.minLength(1)),
  }),
  serviceAlert,
  /** SDK key of the feature-flag service (GrowthBook-compatible, served by this service). */
  featureFlagKey: z.string().check(z.minLength(1)),
  /** Pixel widths (spec section 9). */
  breakpoints: z._default(
    z.object({
      mobile: z.number().check(z.int(), z.positive()),
      desktop: z.number().check(z.int(), z.positive()),
      menuCollapse: z.number().check(z.int(), z.positive()),
      modal: z.number().check(z.int(), z.positive()),
    }),
    { mobile: 768, desktop: 1920, menuCollapse: 1024, modal: 1024 },
  ),
  /** Site-wide maintenance: every page shows the maintenance page. */
  isMaintenanceMode: z._default(z.boolean(), false),
  /**
   * True only in the answer to `getbytype?type=SiteSettings&error=true`: the settings are being read
   * for the error page, so the SPA must not redirect to the error page again if anything else fails.
   */
  isErrorContext: z._default(z.boolean(), false),
  /** The full-page fallback used when settings themselves cannot load (kept here for consistency). */
  fallback: z.object({
    heading: z.string().check(z.minLength(1)),
    body: z.string().check(z.minLength(1)),
    refreshAdvice: z.string().check(z.minLength(1)),
    /** Carries `{phone}`. */
    urgentHelp: z.string().check(z.minLength(1)),
  }),
  loaderText: z.string().check(z.minLength(1)),
  unexpectedErrorHeading: z.string().check(z.minLength(1)),
  skipLinks: z.object({ content: z.string(), menu: z.string(), footer: z.string() }),
  logoutButtonText: z.string().check(z.minLength(1)),
  /** Breadcrumb labels: home label, and segment -> label replacements (login-security -> Update your password). */
  breadcrumbs: z.object({
    homeLabel: z.string().check(z.minLength(1)),
    ariaLabel: z.string().check(z.minLength(1)),
    dropSegments: z.array(z.string()),
    labels: z.record(z.string(), z.string()),
  }),
  /** Texts shared by many screens (Show/Hide password, opens in new tab, ...). */
  commonTexts: z._default(z.record(z.string(), z.string()), {}),
});
export type SiteSettings = z.infer<typeof siteSettings>;
export type SiteSettingsInput = z.input<typeof siteSettings>;
