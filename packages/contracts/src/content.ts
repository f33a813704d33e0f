import { z } from 'zod/mini';
import { defineCall, errorEnvelope } from './call';

/*
 * The content service: site settings, navigation and one page per relative URL. Every label, message and
 * page text the SPA shows comes from here; the content lives as JSON files under `content/` and is loaded
 * into the content store by the server's seed, which validates every file with these schemas.
 *
 * Placeholders in texts are `{name}` and are filled by the SPA: `{count}`, `{status}`, `{minLength}`,
 * `{seconds}`, `{phone}`, `{date}`, `{firstName}`, `{lastName}`, `{policyNumber}`.
 */

// ---------------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------------

/** Longest relative URL the content service accepts (2 KB). */
export const MAX_RELATIVE_URL_LENGTH = 2048;

// eslint-disable-next-line no-control-regex
const controlChars = /[\u0000-\u001f\u007f]/;

/**
 * A link target content may carry: a site path, an https address, tel:, mailto: or an in-page #anchor.
 * Anything else (javascript:, data:, protocol-relative //host) is refused.
 */
export const safeLink = z.string().check(
  z.maxLength(2048),
  z.refine(
    (v) => v === '' || /^(\/(?!\/)|#|https:\/\/[^\s]+$|tel:\+?[0-9 ]+$|mailto:[^\s@]+@[^\s@]+$)/.test(v),
    { message: 'Links must be a site path, an https address, tel: or mailto:' },
  ),
  z.refine((v) => !controlChars.test(v) && !/\s/.test(v.replace(/^tel:.*/, '')), {
    message: 'Links must not contain spaces or control characters',
  }),
);

/** Tags allowed in rich text. The SPA still sanitises with DOMPurify using the same list. */
export const richTextTags = [
  'p',
  'br',
  'strong',
  'em',
  'b',
  'i',
  'ul',
  'ol',
  'li',
  'a',
  'h2',
  'h3',
  'h4',
  'span',
  'abbr',
] as const;
/** Attributes allowed in rich text; `href` must also be a safe link. */
export const richTextAttributes = ['href', 'title', 'class', 'lang', 'rel', 'target', 'aria-label'] as const;

const tagPattern = /<\/?([a-zA-Z][a-zA-Z0-9-]*)\b([^>]*)>/g;
const attrPattern = /([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

/** Why an HTML fragment is not acceptable rich text, or undefined when it is. */
export function richTextProblem(html: string): string | undefined {
  if (/<!--|<!\[CDATA\[|<!doctype/i.test(html)) return 'comments and declarations are not allowed';
  for (const match of html.matchAll(tagPattern)) {
    const tag = match[1]!.toLowerCase();
    if (!(richTextTags as readonly string[]).includes(tag)) return `tag <${tag}> is not allowed`;
    const attrs = (match[2] ?? '').replace(/\/\s*$/, '');
    for (const a of attrs.matchAll(attrPattern)) {
      const name = a[1]!.toLowerCase();
      if (!(richTextAttributes as readonly string[]).includes(name))
        return `attribute ${name} is not allowed`;
      const value = a[2] ?? a[3] ?? a[4] ?? '';
      if (name === 'href' && !safeLink.safeParse(value).success) return `link ${value} is not allowed`;
    }
  }
  return undefined;
}

/** An HTML fragment limited to `richTextTags` and `richTextAttributes`. */
export const richText = z.string().check(
  z.maxLength(20_000),
  z.superRefine((v, ctx) => {
    const problem = richTextProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: `Rich text: ${problem}` });
  }),
);

/** A site path as content names it: starts with one `/`, no query or fragment. */
export const contentPath = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(MAX_RELATIVE_URL_LENGTH),
    z.regex(/^\/(?!\/)[^?#\s]*$/, 'Must be a site path starting with /'),
  );

export const contentImage = z.object({
  /**
   * A site path or an absolute address. The content service's own media (`/api/v1/content/media/...`)
   * is answered with the service's mount path or, when it lives on another origin, its absolute URL.
   */
  src: z
    .string()
    .check(
      z.maxLength(2048),
      z.regex(/^(\/(?!\/)|https?:\/\/)[^\s"'<>]+$/, 'An image needs a site path or an http(s) address'),
    ),
  /** Empty for a decorative image. */
  alt: z.string().check(z.maxLength(300)),
  width: z.optional(z.number().check(z.int(), z.positive())),
  height: z.optional(z.number().check(z.int(), z.positive())),
});
export type ContentImage = z.infer<typeof contentImage>;

export const opensIn = z.enum(['NewTab', 'SameTab']);
export type OpensIn = z.infer<typeof opensIn>;

// ---------------------------------------------------------------------------------------------------
// Form fields
// ---------------------------------------------------------------------------------------------------

/**
 * Field types the SPA builds inputs for. mobileCode is six one-digit boxes, landlineCode five.
 */
export const formFieldType = z.enum([
  'dob',
  'password',
  'newPassword',
  'email',
  'postcode',
  'checkbox',
  'radio',
  'policyNumber',
  'mobileCode',
  'landlineCode',
  'text',
  'textarea',
  'select',
]);
export type FormFieldType = z.infer<typeof formFieldType>;

export const formFieldOption = z.object({
  id: z.string().check(z.minLength(1)),
  label: z.string().check(z.minLength(1)),
  value: z.string(),
  /** Hint text under the option. */
  hint: z.optional(z.string()),
});
export type FormFieldOption = z.infer<typeof formFieldOption>;

/**
 * A form field definition (spec "Form field definition" / "Form input item"). Defaults per spec: label
 * "Label" and error text "Error". `pattern` is a JavaScript regular expression the whole value must match.
 */
export const formField = z
  .object({
    id: z.string().check(z.minLength(1)),
    name: z.string().check(z.minLength(1)),
    type: formFieldType,
    label: z._default(z.string(), 'Label'),
    subLabel: z.optional(z.string()),
    /** Help shown behind a "more information" toggle (rich text). */
    tooltip: z.optional(richText),
    placeholder: z.optional(z.string()),
    errorMessage: z._default(z.string(), 'Error'),
    /** Shown when a required field is left empty; falls back to errorMessage. */
    requiredMessage: z.optional(z.string()),
    required: z._default(z.boolean(), false),
    disabled: z._default(z.boolean(), false),
    maxLength: z.optional(z.number().check(z.int(), z.positive())),
    minLength: z.optional(z.number().check(z.int(), z.nonnegative())),
    pattern: z.optional(
      z.string().check(
        z.maxLength(500),
        z.refine((p) => {
          try {
            new RegExp(p);
            return true;
          } catch {
            return false;
          }
        }, 'Not a valid regular expression'),
      ),
    ),
    autocomplete: z.optional(z.string().check(z.maxLength(100))),
    /** Initial value. */
    value: z.optional(z.string()),
    /** Choices for radio, select and checkbox groups. */
    options: z.optional(z.array(formFieldOption)),
    /**
     * A named journey state in which the field is shown; absent means always. Registration uses
     * `needMoreData` for the policy number field.
     */
    showWhen: z.optional(z.string().check(z.minLength(1))),
  })
  .check(
    z.refine((f) => f.minLength === undefined || f.maxLength === undefined || f.minLength <= f.maxLength, {
      message: 'minLength must not exceed maxLength',
      path: ['minLength'],
    }),
  );
export type FormField = z.infer<typeof formField>;
export type FormFieldInput = z.input<typeof formField>;

// ---------------------------------------------------------------------------------------------------
// Calls to action and modal windows
// ---------------------------------------------------------------------------------------------------

/**
 * What a call to action does. Close hides the modal, Logout signs out, the Guidewire types leave for
 * the policy system (mid-term adjustment, view renewal, request a change) and use the policy's own URL.
 */
export const linkType = z.enum([
  'submit',
  'primaryFunctional',
  'Close',
  'Logout',
  'Default',
  'GuidewireMTA',
  'GuidewireViewRenewal',
  'GuidewireRequestAChange',
]);
export type LinkType = z.infer<typeof linkType>;

export const callToAction = z.object({
  id: z.optional(z.string()),
  text: z.string().check(z.minLength(1)),
  /** Shorter text for narrow screens. */
  mobileLabel: z.optional(z.string()),
  link: z._default(safeLink, ''),
  linkType: z._default(linkType, 'Default'),
  opensIn: z._default(opensIn, 'SameTab'),
  /** Show the interstitial modal before leaving to the policy system. */
  showInterstitial: z._default(z.boolean(), false),
  /** Visual weight: primary (green button), secondary (outline button) or a plain link. */
  style: z._default(z.enum(['primary', 'secondary', 'link']), 'primary'),
});
export type CallToAction = z.infer<typeof callToAction>;

export const modalContent = z.looseObject({
  id: z.string().check(z.minLength(1)),
  heading: z.string().check(z.minLength(1)),
  topHeading: z.optional(z.string()),
  bodyText: z.optional(richText),
  upperBody: z.optional(richText),
  lowerBody: z.optional(richText),
  requestText: z.optional(richText),
  desktopImage: z.optional(contentImage),
  mobileImage: z.optional(contentImage),
  logoTop: z.optional(contentImage),
  primaryCallsToAction: z._default(z.array(callToAction), []),
  secondaryCallsToAction: z._default(z.array(callToAction), []),
  tertiaryCallsToAction: z._default(z.array(callToAction), []),
  /** Label of the close (X) button, for screen readers. */
  closeLabel: z._default(z.string(), 'Close'),
  /** Date window (ISO 8601) in which a splash (welcome back) modal shows. */
  displayFrom: z.optional(z.iso.datetime({ offset: true })),
  displayUntil: z.optional(z.iso.datetime({ offset: true })),
});
export type ModalContent = z.infer<typeof modalContent>;

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

// ---------------------------------------------------------------------------------------------------
// Navigation
// ---------------------------------------------------------------------------------------------------

const navItemBase = z.object({
  id: z.string().check(z.minLength(1)),
  title: z.string().check(z.minLength(1)),
  url: safeLink,
  /** main: main navigation; utility: the utility links above it; footer: footer links. */
  group: z.enum(['main', 'utility', 'footer']),
  /** Shown only to signed-in customers. */
  requiresAuthentication: z._default(z.boolean(), false),
  /** Shown only to customers who are not signed in (for example "Sign in", "Register"). */
  hideWhenAuthenticated: z._default(z.boolean(), false),
  opensIn: z._default(opensIn, 'SameTab'),
});

export const navLeaf = navItemBase;
export const navItem = z.extend(navItemBase, {
  children: z.optional(z.array(navLeaf)),
  /**
   * The SPA fills the children itself: `policies` lists the customer's policies (active, upcoming,
   * expired), each linking to this item's url with `?id={policyNumber}`.
   */
  dynamicChildren: z.optional(z.enum(['policies'])),
});
export type NavItem = z.infer<typeof navItem>;

/**
 * The spec's "two lists of items": `header` (main navigation and utility links, told apart by `group`;
 * the SPA appends the sign-out button after the utility links itself) and `footer`.
 */
export const navigation = z.object({
  header: z.array(z.extend(navItem, { group: z.enum(['main', 'utility']) })),
  footer: z.array(z.extend(navItem, { group: z.literal('footer') })),
});
export type Navigation = z.infer<typeof navigation>;

// ---------------------------------------------------------------------------------------------------
// Page blocks
// ---------------------------------------------------------------------------------------------------

const blockBase = { id: z.string().check(z.minLength(1)), heading: z.optional(z.string()) };
const texts = z.record(z.string(), z.string());
const messages = z.record(z.string(), richText);

/** A heading, a body and buttons: the no-policies and no-quotes templates and override messages use it. */
export const messageBox = z.object({
  heading: z.string().check(z.minLength(1)),
  body: richText,
  callsToAction: z._default(z.array(callToAction), []),
});
export type MessageBox = z.infer<typeof messageBox>;

const richTextBlock = z.looseObject({ ...blockBase, type: z.literal('richText'), html: richText });

const callToActionListBlock = z.looseObject({
  ...blockBase,
  type: z.literal('callToActionList'),
  body: z.optional(richText),
  callsToAction: z.array(callToAction).check(z.minLength(1)),
});

const personalDetailsBlock = z.looseObject({
  ...blockBase,
  type: z.literal('personalDetails'),
  labels: z.object({
    name: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    dateOfBirth: z.string(),
    address: z.string(),
  }),
  /** Shown when the profile could not be loaded. */
  errorText: richText,
  changeText: z.optional(richText),
});

const contactDetailsBlock = z.looseObject({
  ...blockBase,
  type: z.literal('contactDetails'),
  labels: z.object({ email: z.string(), mobile: z.string(), landline: z.string() }),
  errorText: richText,
  changeText: z.optional(richText),
});

/** Password details with the two-step change modal (choose factor, then code and passwords). */
const passwordDetailsBlock = z.looseObject({
  ...blockBase,
  type: z.literal('passwordDetails'),
  lastUpdatedLabel: z.string(),
  changeButtonText: z.string(),
  /** Shown on 400, 404 or 502 from the profile call. */
  unableToRetrieveText: z.string(),
  /** Shown when the profile is missing or the date is invalid. */
  invalidDateText: z.string(),
  modal: z.object({
    stepOneHeading: z.string(),
    stepOneBody: richText,
    smsOptionLabel: z.string(),
    callOptionLabel: z.string(),
    sendCodeText: z.string(),
    stepTwoHeading: z.string(),
    stepTwoBody: richText,
    fields: z.array(formField),
    submitText: z.string(),
    cancelText: z.string(),
    backText: z.string(),
    successMessage: richText,
    updateErrorMessage: richText,
    codeErrorMessage: richText,
    currentPasswordErrorMessage: richText,
    passwordErrorMessage: richText,
  }),
});

const policyDetailsBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyDetails'),
  labels: texts,
  /** Shown instead of an annual premium of 0. */
  zeroPremiumText: z.string(),
  errorText: richText,
});

const policiesGridBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policiesGrid'),
  filterLabels: z.object({ active: z.string(), upcoming: z.string(), expired: z.string() }),
  filterAriaLabel: z.string(),
  loadMoreText: z.string(),
  /** "{count} {status} policies available to view". */
  availableText: z.string(),
  viewPolicyText: z.string(),
  labels: texts,
  pageSize: z._default(z.number().check(z.int(), z.positive()), 3),
  errorText: richText,
  noPolicies: messageBox,
});

const renewalsGridBlock = z.looseObject({
  ...blockBase,
  type: z.literal('renewalsGrid'),
  body: z.optional(richText),
  labels: texts,
  viewRenewalText: z.string(),
});

/** Marketing channels (checkbox ids 111, 222, 333) and the tailored online yes/no (7654987 / 7654988). */
const marketingPreferencesBlock = z.looseObject({
  ...blockBase,
  type: z.literal('marketingPreferences'),
  body: z.optional(richText),
  channels: z.array(
    z.object({ id: z.string(), channel: z.enum(['email', 'phone', 'post']), label: z.string() }),
  ),
  channelsHeading: z.string(),
  online: z.object({
    question: z.string(),
    hint: z.optional(richText),
    yesOption: formFieldOption,
    noOption: formFieldOption,
  }),
  saveText: z.string(),
  successMessage: richText,
  errorSavingChangesMessage: richText,
  loadErrorMessage: richText,
});

const correspondencePreferencesBlock = z.looseObject({
  ...blockBase,
  type: z.literal('correspondencePreferences'),
  body: z.optional(richText),
  paperlessLabel: z.string(),
  paperLabel: z.string(),
  currentlyPaperlessText: richText,
  currentlyPaperText: richText,
  addressLabel: z.string(),
  checkboxRequiredMessage: z.string(),
  saveText: z.string(),
  successMessage: richText,
  errorMessage: richText,
  loadErrorMessage: richText,
});

const agencyCardBlock = z.looseObject({
  ...blockBase,
  type: z.literal('agencyCard'),
  body: z.optional(richText),
  labels: texts,
  mapLinkText: z.string(),
  /** Carries `{open}` and `{close}`. */
  openingHoursText: z.string(),
  fallback: messageBox,
});

const contextualHelpItem = z.object({
  id: z.string(),
  heading: z.string(),
  body: richText,
  callsToAction: z._default(z.array(callToAction), []),
  allowMTA: z.optional(z.boolean()),
  displayFilter: z.optional(z.enum(['Enabled', 'Disabled', 'PolicyRenewalCustomerReady'])),
  productTypes: z.optional(z.array(z.string())),
});
const agencyContextualHelpBlock = z.looseObject({
  ...blockBase,
  type: z.literal('agencyContextualHelp'),
  body: richText,
});
const policyContextualHelpBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyContextualHelp'),
  items: z.array(contextualHelpItem).check(z.minLength(1)),
});

const documentMessages = z.object({
  apiError: richText,
  noDocsError: richText,
  noDocsErrorHeading: z.string(),
  fileError: richText,
});

const billingDocumentsBlock = z.looseObject({
  ...blockBase,
  type: z.literal('billingDocuments'),
  body: z.optional(richText),
  accountLabel: z.string(),
  viewPdfText: z.string(),
  loadMoreText: z.string(),
  pageSize: z.object({
    mobile: z.number().check(z.int(), z.positive()),
    desktop: z.number().check(z.int(), z.positive()),
  }),
  messages: documentMessages,
});

const policyDocumentPacksBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyDocumentPacks'),
  body: z.optional(richText),
  downloadText: z.string(),
  loadMoreText: z.string(),
  createdLabel: z.string(),
  pageSize: z.object({
    mobile: z.number().check(z.int(), z.positive()),
    desktop: z.number().check(z.int(), z.positive()),
  }),
  messages: documentMessages,
  /** Standard policy wording inserts, downloadable by every customer with that product. */
  inserts: z._default(
    z.array(
      z.object({ id: z.string(), title: z.string(), productTypes: z.array(z.string()), url: safeLink }),
    ),
    [],
  ),
});

const policyCoverInsertBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyCoverInsert'),
  body: z.optional(richText),
  labels: texts,
  /** Shown when a list of valuables is longer than the display limit. */
  tooManyItemsMessage: z.string(),
  maxItems: z._default(z.number().check(z.int(), z.positive()), 20),
  unknownArtTypeLabel: z.string(),
  errorText: richText,
});

const policyCoverCallToActionBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyCoverCallToAction'),
  /** Used when the policy allows viewing the renewal online. */
  onlineRenewal: messageBox,
  /** Used otherwise. */
  standard: messageBox,
});

const quotesBlock = z.looseObject({
  ...blockBase,
  type: z.literal('quotes'),
  body: z.optional(richText),
  labels: texts,
  downloadText: z.string(),
  continueOnlineText: z.string(),
  noQuotes: messageBox,
  fileError: richText,
});

/** One answer to the contact form's secondary question; `override` replaces the text box. */
const contactSecondaryAnswer = z.object({
  id: z.string(),
  label: z.string(),
  messageType: z.string().check(z.minLength(1)),
  override: z.optional(messageBox),
});
const contactPrimaryAnswer = z.object({
  id: z.string(),
  label: z.string(),
  /** The product type the message is about, sent as productType. */
  productType: z.string().check(z.minLength(1)),
  secondaryAnswers: z.array(contactSecondaryAnswer).check(z.minLength(1)),
});
const contactFormBlock = z.looseObject({
  ...blockBase,
  type: z.literal('contactForm'),
  body: z.optional(richText),
  primaryQuestion: z.object({
    label: z.string(),
    hint: z.optional(z.string()),
    answers: z.array(contactPrimaryAnswer).check(z.minLength(1)),
  }),
  secondaryQuestionLabel: z.string(),
  secondaryQuestionHint: z.optional(z.string()),
  message: formField,
  /** "You have {count} characters remaining". */
  remainingText: z.string(),
  submitText: z.string(),
  successUrl: contentPath,
  errorHtml: richText,
});

/** Cross-sell: `policyTypeFilter` is a comma list of product types with condition ALL, ANY or NONE. */
const crossSellBannerBlock = z.looseObject({
  ...blockBase,
  type: z.literal('crossSellBanner'),
  body: richText,
  image: z.optional(contentImage),
  callsToAction: z._default(z.array(callToAction), []),
  policyTypeFilter: z._default(z.string(), ''),
  condition: z._default(z.enum(['ALL', 'ANY', 'NONE', 'all', 'any', 'none']), 'ANY'),
  /** Shown instead when the customer has not agreed to tailored online marketing. */
  alternative: messageBox,
});

const serviceAlertBlock = z.looseObject({
  ...blockBase,
  type: z.literal('serviceAlert'),
  alert: serviceAlert,
});

const noPoliciesTemplateBlock = z.looseObject({
  ...blockBase,
  type: z.literal('noPoliciesTemplate'),
  content: messageBox,
});

const tabbedNavigationBlock = z.looseObject({
  ...blockBase,
  type: z.literal('tabbedNavigation'),
  ariaLabel: z.string(),
  /** Links carry the policy id query parameter the SPA adds. */
  tabs: z.array(z.object({ id: z.string(), title: z.string(), url: contentPath })).check(z.minLength(1)),
});

const faqBlock = z.looseObject({
  ...blockBase,
  type: z.literal('faq'),
  items: z.array(z.object({ id: z.string(), question: z.string(), answer: richText })).check(z.minLength(1)),
});

/** Every content block type a page may carry. */
export const contentBlock = z.discriminatedUnion('type', [
  richTextBlock,
  callToActionListBlock,
  personalDetailsBlock,
  contactDetailsBlock,
  passwordDetailsBlock,
  policyDetailsBlock,
  policiesGridBlock,
  renewalsGridBlock,
  marketingPreferencesBlock,
  correspondencePreferencesBlock,
  agencyCardBlock,
  agencyContextualHelpBlock,
  policyContextualHelpBlock,
  billingDocumentsBlock,
  policyDocumentPacksBlock,
  policyCoverInsertBlock,
  policyCoverCallToActionBlock,
  quotesBlock,
  contactFormBlock,
  crossSellBannerBlock,
  serviceAlertBlock,
  noPoliciesTemplateBlock,
  tabbedNavigationBlock,
  faqBlock,
]);
export type ContentBlock = z.infer<typeof contentBlock>;
export type ContentBlockType = ContentBlock['type'];
/** One block type, e.g. `BlockOf<'contactForm'>`. */
export type BlockOf<T extends ContentBlockType> = Extract<ContentBlock, { type: T }>;

/**
 * An experiment: the feature flag `key` (in the flag definitions) assigns one variant id; the SPA renders
 * that variant's blocks at `slot`. Weights are the intended split and match the flag definition.
 */
export const contentExperiment = z.object({
  key: z.string().check(z.minLength(1)),
  slot: z._default(z.enum(['beforeBlocks', 'afterBlocks']), 'beforeBlocks'),
  variants: z
    .array(
      z.object({
        id: z.string().check(z.minLength(1)),
        weight: z.number().check(z.minimum(0), z.maximum(1)),
        blocks: z.array(contentBlock),
      }),
    )
    .check(z.minLength(1)),
});
export type Experiment = z.infer<typeof contentExperiment>;

// ---------------------------------------------------------------------------------------------------
// Pages
// ---------------------------------------------------------------------------------------------------

/**
 * Named texts of a page. Known keys: wrongCredentialsMessage, submitErrorMessage, apiError, noDocsError,
 * noDocsErrorHeading, fileError, errorSavingChangesMessage, errorMessage, updateErrorMessage,
 * invalidTokenMessage (registration `?warning=bad-token`), incorrectEmailMessage (OK_1),
 * needMoreDataMessage, lockedOutMessage, passwordExpiredMessage, resendText, codeSentText, formErrorMessage,
 * errorSummaryHeading.
 */
export const pageMessages = messages;

const pageBase = {
  id: z.string().check(z.minLength(1)),
  url: contentPath,
  /** Editor's name for the page. */
  name: z.string().check(z.minLength(1)),
  requiresAuthentication: z.boolean(),
  isMaintenanceMode: z._default(z.boolean(), false),
  meta: z.object({
    title: z.string().check(z.minLength(1)),
    description: z.optional(z.string().check(z.maxLength(300))),
  }),
  heading: z.string().check(z.minLength(1)),
  /** Label in breadcrumbs (defaults to the URL segment with hyphens as spaces). */
  breadcrumbTitle: z.optional(z.string()),
  intro: z.optional(richText),
  blocks: z._default(z.array(contentBlock), []),
  experiments: z._default(z.array(contentExperiment), []),
  fields: z._default(z.array(formField), []),
  messages: z._default(pageMessages, {}),
  callsToAction: z._default(z.array(callToAction), []),
  /** Submit button text of the page's form. */
  submitText: z.optional(z.string()),
  /** Where the page's form goes next when it succeeds (for example registration -> check your email). */
  nextUrl: z.optional(contentPath),
};

const page = <T extends string, S extends z.core.$ZodLooseShape>(type: T, extra: S) =>
  z.looseObject({ ...pageBase, type: z.literal(type), ...extra });

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
  'ErrorPage',
  'MaintenancePage',
] as const;
export type PageType = (typeof pageTypes)[number];

export const pageContent = z.discriminatedUnion('type', [
  page('RegistrationPage', {
    /** Blocks shown when registration answers OK_2 (we could not match the details). */
    failureBlocks: z._default(z.array(contentBlock), []),
  }),
  page('ConfirmationPage', {}),
  page('PasswordPage', {
    mode: z.enum(['activation', 'recovery']),
  }),
  page('AuthenticationVerificationPage', {}),
  page('AuthenticationChallengePage', {
    /** Resend stays disabled this long after load and each click (spec: 30 s). */
    resendDelaySeconds: z._default(z.number().check(z.int(), z.positive()), 30),
  }),
  page('LoginPage', {}),
  page('ResetPasswordPage', {}),
  page('DashboardPage', {}),
  page('StandardPageTemplate', {}),
  page('RedirectPage', {
    target: safeLink.check(z.refine((v) => v !== '', 'A redirect needs a target')),
    opensIn: z._default(opensIn, 'SameTab'),
  }),
  page('PolicyRedirectPage', {
    /** Where each stored post-login destination kind goes; the SPA adds `?id={policyNumber}`. */
    targets: z.object({
      policy: contentPath,
      cover: contentPath,
      documents: contentPath,
      bills: contentPath,
    }),
    /** Used when the policy is in none of the customer's lists. */
    notFoundUrl: contentPath,
  }),
  page('AccountPage', {}),
  page('RegistrationMarketingPreferences', {}),
  page('FormSuccessPage', {
    image: z.optional(contentImage),
  }),
  page('PolicyPage', {}),
  page('ErrorPage', {}),
  page('MaintenancePage', {}),
]);
export type PageContent = z.infer<typeof pageContent>;
export type PageContentInput = z.input<typeof pageContent>;
/** One page type, e.g. `PageOf<'PasswordPage'>`. */
export type PageOf<T extends PageType> = Extract<PageContent, { type: T }>;

// ---------------------------------------------------------------------------------------------------
// Relative URL normalisation (shared by the SPA and the server so both look up the same key)
// ---------------------------------------------------------------------------------------------------

/**
 * The content key of a relative URL: query and fragment dropped, repeated and trailing slashes
 * removed, lower case. `/Account/Policies/?id=1` -> `/account/policies`.
 */
export function normaliseContentPath(relativeUrl: string): string {
  const path = relativeUrl.split(/[?#]/, 1)[0] ?? '';
  const collapsed = path.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return (collapsed === '' ? '/' : collapsed).toLowerCase();
}

// ---------------------------------------------------------------------------------------------------
// Feature flags (GrowthBook-compatible definitions)
// ---------------------------------------------------------------------------------------------------

const flagValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const featureRule = z.looseObject({
  id: z.optional(z.string()),
  key: z.optional(z.string()),
  condition: z.optional(z.record(z.string(), z.unknown())),
  force: z.optional(flagValue),
  variations: z.optional(z.array(flagValue)),
  weights: z.optional(z.array(z.number().check(z.minimum(0), z.maximum(1)))),
  coverage: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
  hashAttribute: z.optional(z.string()),
  meta: z.optional(z.array(z.looseObject({ key: z.optional(z.string()), name: z.optional(z.string()) }))),
});
export const featureDefinition = z.looseObject({
  defaultValue: flagValue,
  rules: z.optional(z.array(featureRule)),
});
export const featureDefinitions = z.looseObject({
  features: z.record(z.string(), featureDefinition),
  dateUpdated: z.optional(z.string()),
});
export type FeatureDefinitions = z.infer<typeof featureDefinitions>;

// ---------------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------------

/** No control characters (they never appear in a real path and break logs and caches). */
const queryText = (max: number) =>
  z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Give exactly one value') }).check(
    z.minLength(1, 'Must not be empty'),
    z.maxLength(max, `Must be at most ${max} characters`),
    z.refine((v) => !controlChars.test(v), 'Must not contain control characters'),
  );

/**
 * `type` must be `SiteSettings` (the only settings type the portal reads; anything else is a 400).
 * `error=true` returns the same settings with `isErrorContext: true`.
 */
export const getSiteSettingsQuery = z.object({
  type: z.pipe(queryText(100), z.literal('SiteSettings', { error: 'Only type=SiteSettings is supported' })),
  error: z.optional(z.enum(['true', 'false'], { error: 'Must be true or false' })),
});
export type GetSiteSettingsQuery = z.infer<typeof getSiteSettingsQuery>;

/** `relativeUrl` is the page's path (query and fragment are ignored); at most 2 KB. */
export const getPageQuery = z.object({
  relativeUrl: queryText(MAX_RELATIVE_URL_LENGTH).check(
    z.refine((v) => v.startsWith('/') && !v.startsWith('//'), 'Must be a site path starting with /'),
  ),
});
export type GetPageQuery = z.infer<typeof getPageQuery>;

export const getSiteSettingsCall = defineCall({
  id: 'content.getSiteSettings',
  summary: 'Site settings (array; the SPA uses the first item)',
  service: 'content',
  method: 'GET',
  path: '/api/v1/content/getbytype',
  auth: false,
  query: getSiteSettingsQuery,
  responses: { 200: z.array(siteSettings), 400: errorEnvelope },
});

export const getContentByRelativeUrlCall = defineCall({
  id: 'content.getByRelativeUrl',
  summary: 'The content of the page at a relative URL; the SPA renders the page type it names',
  service: 'content',
  method: 'GET',
  path: '/api/v1/content/getByRelativeUrl',
  auth: false,
  query: getPageQuery,
  responses: { 200: pageContent, 400: errorEnvelope, 404: errorEnvelope },
});

export const getNavigationCall = defineCall({
  id: 'content.getNavigation',
  summary: 'Navigation: header (main and utility links) and footer',
  service: 'content',
  method: 'GET',
  path: '/api/v1/content/getnavigation',
  auth: false,
  responses: { 200: navigation },
});

export const featureDefinitionsParams = z.object({
  clientKey: z.string().check(z.minLength(1), z.maxLength(200)),
});

export const getFeatureDefinitionsCall = defineCall({
  id: 'content.getFeatureDefinitions',
  summary: 'Feature-flag definitions for the flag SDK (GrowthBook-compatible)',
  service: 'content',
  method: 'GET',
  path: '/api/features/:clientKey',
  auth: false,
  params: featureDefinitionsParams,
  responses: { 200: featureDefinitions, 404: errorEnvelope },
});
