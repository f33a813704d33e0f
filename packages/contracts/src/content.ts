import { z } from 'zod';
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
export const safeLink = z
  .string()
  .max(2048)
  .refine(
    (v) => v === '' || /^(\/(?!\/)|#|https:\/\/[^\s]+$|tel:\+?[0-9 ]+$|mailto:[^\s@]+@[^\s@]+$)/.test(v),
    { message: 'Links must be a site path, an https address, tel: or mailto:' },
  )
  .refine((v) => !controlChars.test(v) && !/\s/.test(v.replace(/^tel:.*/, '')), {
    message: 'Links must not contain spaces or control characters',
  });

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
export const richText = z
  .string()
  .max(20_000)
  .superRefine((v, ctx) => {
    const problem = richTextProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: `Rich text: ${problem}` });
  });

/** A site path as content names it: starts with one `/`, no query or fragment. */
export const contentPath = z
  .string()
  .min(1)
  .max(MAX_RELATIVE_URL_LENGTH)
  .regex(/^\/(?!\/)[^?#\s]*$/, 'Must be a site path starting with /');

export const contentImage = z.object({
  /**
   * A site path or an absolute address. The content service's own media (`/api/v1/content/media/...`)
   * is answered with the service's mount path or, when it lives on another origin, its absolute URL.
   */
  src: z
    .string()
    .max(2048)
    .regex(/^(\/(?!\/)|https?:\/\/)[^\s"'<>]+$/, 'An image needs a site path or an http(s) address'),
  /** Empty for a decorative image. */
  alt: z.string().max(300),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
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
  id: z.string().min(1),
  label: z.string().min(1),
  value: z.string(),
  /** Hint text under the option. */
  hint: z.string().optional(),
});
export type FormFieldOption = z.infer<typeof formFieldOption>;

/**
 * A form field definition (spec "Form field definition" / "Form input item"). Defaults per spec: label
 * "Label" and error text "Error". `pattern` is a JavaScript regular expression the whole value must match.
 */
export const formField = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    type: formFieldType,
    label: z.string().default('Label'),
    subLabel: z.string().optional(),
    /** Help shown behind a "more information" toggle (rich text). */
    tooltip: richText.optional(),
    placeholder: z.string().optional(),
    errorMessage: z.string().default('Error'),
    /** Shown when a required field is left empty; falls back to errorMessage. */
    requiredMessage: z.string().optional(),
    required: z.boolean().default(false),
    disabled: z.boolean().default(false),
    maxLength: z.number().int().positive().optional(),
    minLength: z.number().int().nonnegative().optional(),
    pattern: z
      .string()
      .max(500)
      .refine((p) => {
        try {
          new RegExp(p);
          return true;
        } catch {
          return false;
        }
      }, 'Not a valid regular expression')
      .optional(),
    autocomplete: z.string().max(100).optional(),
    /** Initial value. */
    value: z.string().optional(),
    /** Choices for radio, select and checkbox groups. */
    options: z.array(formFieldOption).optional(),
    /**
     * A named journey state in which the field is shown; absent means always. Registration uses
     * `needMoreData` for the policy number field.
     */
    showWhen: z.string().min(1).optional(),
  })
  .refine((f) => f.minLength === undefined || f.maxLength === undefined || f.minLength <= f.maxLength, {
    message: 'minLength must not exceed maxLength',
    path: ['minLength'],
  });
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
  id: z.string().optional(),
  text: z.string().min(1),
  /** Shorter text for narrow screens. */
  mobileLabel: z.string().optional(),
  link: safeLink.default(''),
  linkType: linkType.default('Default'),
  opensIn: opensIn.default('SameTab'),
  /** Show the interstitial modal before leaving to the policy system. */
  showInterstitial: z.boolean().default(false),
  /** Visual weight: primary (green button), secondary (outline button) or a plain link. */
  style: z.enum(['primary', 'secondary', 'link']).default('primary'),
});
export type CallToAction = z.infer<typeof callToAction>;

export const modalContent = z.looseObject({
  id: z.string().min(1),
  heading: z.string().min(1),
  topHeading: z.string().optional(),
  bodyText: richText.optional(),
  upperBody: richText.optional(),
  lowerBody: richText.optional(),
  requestText: richText.optional(),
  desktopImage: contentImage.optional(),
  mobileImage: contentImage.optional(),
  logoTop: contentImage.optional(),
  primaryCallsToAction: z.array(callToAction).default([]),
  secondaryCallsToAction: z.array(callToAction).default([]),
  tertiaryCallsToAction: z.array(callToAction).default([]),
  /** Label of the close (X) button, for screen readers. */
  closeLabel: z.string().default('Close'),
  /** Date window (ISO 8601) in which a splash (welcome back) modal shows. */
  displayFrom: z.iso.datetime({ offset: true }).optional(),
  displayUntil: z.iso.datetime({ offset: true }).optional(),
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
  minPasswordLength: z.number().int().min(8).max(64),
  lowercaseChar: z.boolean(),
  uppercaseChar: z.boolean(),
  numberChar: z.boolean(),
  specialChar: z.boolean(),
  heading: z.string().min(1),
  minLengthText: z.string().min(1),
  lowercaseText: z.string().min(1),
  uppercaseText: z.string().min(1),
  numberText: z.string().min(1),
  specialText: z.string().min(1),
  noSpacesText: z.string().min(1),
  /** Extra guidance under the list (for example "Try three random words"). */
  guidance: richText.optional(),
});
export type PasswordRequirements = z.infer<typeof passwordRequirements>;

export const serviceAlert = z.object({
  visible: z.boolean(),
  title: z.string(),
  message: richText,
});
export type ServiceAlert = z.infer<typeof serviceAlert>;

export const siteSettings = z.looseObject({
  id: z.string().min(1),
  type: z.literal('SiteSettings'),
  siteName: z.string().min(1),
  loginPage: contentPath,
  accountRootPage: contentPath,
  dashboardPage: contentPath,
  maintenancePage: contentPath,
  errorPage: contentPath,
  /** Freephone number for urgent help, as displayed (for example "0800 123 4567"). */
  infinityPhoneTracking: z
    .string()
    .regex(/^[0-9][0-9 ]{6,18}[0-9]$/, 'A UK phone number in digits and spaces'),
  globalPasswordRequirementsBlock: passwordRequirements,
  /** Product code (PHL, PAH, PHR, NGH, NGB, MPC, ...) -> the label customers see. */
  policyTypeMappingText: z.record(z.string().regex(/^[A-Z]{2,5}$/), z.string().min(1)),
  /** Minutes the SPA may reuse user data from session storage; 0 disables the cache. */
  userCacheTTL: z.number().int().min(0).max(1440),
  logOutModalWindowBlock: modalContent,
  welcomeModalWindowBlock: modalContent,
  welcomeBackWindowBlock: modalContent,
  gwInterstitialModalWindowBlock: modalContent,
  gwInterstitialBespokeModalWindowBlock: modalContent,
  /** Idle minutes before the inactivity modal; 0 disables it. */
  idleTimeoutMinutes: z.number().int().min(0).max(720),
  idleCountdownSeconds: z.number().int().positive().max(600).default(60),
  /** Inactivity modal texts; `bodyText` carries `{seconds}`. */
  idleModal: z.object({
    heading: z.string().min(1),
    bodyText: z.string().min(1),
    staySignedInText: z.string().min(1),
    signOutText: z.string().min(1),
  }),
  serviceAlert,
  /** SDK key of the feature-flag service (GrowthBook-compatible, served by this service). */
  featureFlagKey: z.string().min(1),
  /** Pixel widths (spec section 9). */
  breakpoints: z
    .object({
      mobile: z.number().int().positive(),
      desktop: z.number().int().positive(),
      menuCollapse: z.number().int().positive(),
      modal: z.number().int().positive(),
    })
    .default({ mobile: 768, desktop: 1920, menuCollapse: 1024, modal: 1024 }),
  /** Site-wide maintenance: every page shows the maintenance page. */
  isMaintenanceMode: z.boolean().default(false),
  /**
   * True only in the answer to `getbytype?type=SiteSettings&error=true`: the settings are being read
   * for the error page, so the SPA must not redirect to the error page again if anything else fails.
   */
  isErrorContext: z.boolean().default(false),
  /** The full-page fallback used when settings themselves cannot load (kept here for consistency). */
  fallback: z.object({
    heading: z.string().min(1),
    body: z.string().min(1),
    refreshAdvice: z.string().min(1),
    /** Carries `{phone}`. */
    urgentHelp: z.string().min(1),
  }),
  loaderText: z.string().min(1),
  unexpectedErrorHeading: z.string().min(1),
  skipLinks: z.object({ content: z.string(), menu: z.string(), footer: z.string() }),
  logoutButtonText: z.string().min(1),
  /** Breadcrumb labels: home label, and segment -> label replacements (login-security -> Update your password). */
  breadcrumbs: z.object({
    homeLabel: z.string().min(1),
    ariaLabel: z.string().min(1),
    dropSegments: z.array(z.string()),
    labels: z.record(z.string(), z.string()),
  }),
  /** Texts shared by many screens (Show/Hide password, opens in new tab, ...). */
  commonTexts: z.record(z.string(), z.string()).default({}),
});
export type SiteSettings = z.infer<typeof siteSettings>;
export type SiteSettingsInput = z.input<typeof siteSettings>;

// ---------------------------------------------------------------------------------------------------
// Navigation
// ---------------------------------------------------------------------------------------------------

const navItemBase = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  url: safeLink,
  /** main: main navigation; utility: the utility links above it; footer: footer links. */
  group: z.enum(['main', 'utility', 'footer']),
  /** Shown only to signed-in customers. */
  requiresAuthentication: z.boolean().default(false),
  /** Shown only to customers who are not signed in (for example "Sign in", "Register"). */
  hideWhenAuthenticated: z.boolean().default(false),
  opensIn: opensIn.default('SameTab'),
});

export const navLeaf = navItemBase;
export const navItem = navItemBase.extend({
  children: z.array(navLeaf).optional(),
  /**
   * The SPA fills the children itself: `policies` lists the customer's policies (active, upcoming,
   * expired), each linking to this item's url with `?id={policyNumber}`.
   */
  dynamicChildren: z.enum(['policies']).optional(),
});
export type NavItem = z.infer<typeof navItem>;

/**
 * The spec's "two lists of items": `header` (main navigation and utility links, told apart by `group`;
 * the SPA appends the sign-out button after the utility links itself) and `footer`.
 */
export const navigation = z.object({
  header: z.array(navItem.extend({ group: z.enum(['main', 'utility']) })),
  footer: z.array(navItem.extend({ group: z.literal('footer') })),
});
export type Navigation = z.infer<typeof navigation>;

// ---------------------------------------------------------------------------------------------------
// Page blocks
// ---------------------------------------------------------------------------------------------------

const blockBase = { id: z.string().min(1), heading: z.string().optional() };
const texts = z.record(z.string(), z.string());
const messages = z.record(z.string(), richText);

/** A heading, a body and buttons: the no-policies and no-quotes templates and override messages use it. */
export const messageBox = z.object({
  heading: z.string().min(1),
  body: richText,
  callsToAction: z.array(callToAction).default([]),
});
export type MessageBox = z.infer<typeof messageBox>;

const richTextBlock = z.looseObject({ ...blockBase, type: z.literal('richText'), html: richText });

const callToActionListBlock = z.looseObject({
  ...blockBase,
  type: z.literal('callToActionList'),
  body: richText.optional(),
  callsToAction: z.array(callToAction).min(1),
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
  changeText: richText.optional(),
});

const contactDetailsBlock = z.looseObject({
  ...blockBase,
  type: z.literal('contactDetails'),
  labels: z.object({ email: z.string(), mobile: z.string(), landline: z.string() }),
  errorText: richText,
  changeText: richText.optional(),
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
  pageSize: z.number().int().positive().default(3),
  errorText: richText,
  noPolicies: messageBox,
});

const renewalsGridBlock = z.looseObject({
  ...blockBase,
  type: z.literal('renewalsGrid'),
  body: richText.optional(),
  labels: texts,
  viewRenewalText: z.string(),
});

/** Marketing channels (checkbox ids 111, 222, 333) and the tailored online yes/no (7654987 / 7654988). */
const marketingPreferencesBlock = z.looseObject({
  ...blockBase,
  type: z.literal('marketingPreferences'),
  body: richText.optional(),
  channels: z.array(
    z.object({ id: z.string(), channel: z.enum(['email', 'phone', 'post']), label: z.string() }),
  ),
  channelsHeading: z.string(),
  online: z.object({
    question: z.string(),
    hint: richText.optional(),
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
  body: richText.optional(),
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
  body: richText.optional(),
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
  callsToAction: z.array(callToAction).default([]),
  allowMTA: z.boolean().optional(),
  displayFilter: z.enum(['Enabled', 'Disabled', 'PolicyRenewalCustomerReady']).optional(),
  productTypes: z.array(z.string()).optional(),
});
const agencyContextualHelpBlock = z.looseObject({
  ...blockBase,
  type: z.literal('agencyContextualHelp'),
  body: richText,
});
const policyContextualHelpBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyContextualHelp'),
  items: z.array(contextualHelpItem).min(1),
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
  body: richText.optional(),
  accountLabel: z.string(),
  viewPdfText: z.string(),
  loadMoreText: z.string(),
  pageSize: z.object({ mobile: z.number().int().positive(), desktop: z.number().int().positive() }),
  messages: documentMessages,
});

const policyDocumentPacksBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyDocumentPacks'),
  body: richText.optional(),
  downloadText: z.string(),
  loadMoreText: z.string(),
  createdLabel: z.string(),
  pageSize: z.object({ mobile: z.number().int().positive(), desktop: z.number().int().positive() }),
  messages: documentMessages,
  /** Standard policy wording inserts, downloadable by every customer with that product. */
  inserts: z
    .array(z.object({ id: z.string(), title: z.string(), productTypes: z.array(z.string()), url: safeLink }))
    .default([]),
});

const policyCoverInsertBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyCoverInsert'),
  body: richText.optional(),
  labels: texts,
  /** Shown when a list of valuables is longer than the display limit. */
  tooManyItemsMessage: z.string(),
  maxItems: z.number().int().positive().default(20),
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
  body: richText.optional(),
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
  messageType: z.string().min(1),
  override: messageBox.optional(),
});
const contactPrimaryAnswer = z.object({
  id: z.string(),
  label: z.string(),
  /** The product type the message is about, sent as productType. */
  productType: z.string().min(1),
  secondaryAnswers: z.array(contactSecondaryAnswer).min(1),
});
const contactFormBlock = z.looseObject({
  ...blockBase,
  type: z.literal('contactForm'),
  body: richText.optional(),
  primaryQuestion: z.object({
    label: z.string(),
    hint: z.string().optional(),
    answers: z.array(contactPrimaryAnswer).min(1),
  }),
  secondaryQuestionLabel: z.string(),
  secondaryQuestionHint: z.string().optional(),
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
  image: contentImage.optional(),
  callsToAction: z.array(callToAction).default([]),
  policyTypeFilter: z.string().default(''),
  condition: z.enum(['ALL', 'ANY', 'NONE', 'all', 'any', 'none']).default('ANY'),
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
  tabs: z.array(z.object({ id: z.string(), title: z.string(), url: contentPath })).min(1),
});

const faqBlock = z.looseObject({
  ...blockBase,
  type: z.literal('faq'),
  items: z.array(z.object({ id: z.string(), question: z.string(), answer: richText })).min(1),
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
  key: z.string().min(1),
  slot: z.enum(['beforeBlocks', 'afterBlocks']).default('beforeBlocks'),
  variants: z
    .array(
      z.object({
        id: z.string().min(1),
        weight: z.number().min(0).max(1),
        blocks: z.array(contentBlock),
      }),
    )
    .min(1),
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
  id: z.string().min(1),
  url: contentPath,
  /** Editor's name for the page. */
  name: z.string().min(1),
  requiresAuthentication: z.boolean(),
  isMaintenanceMode: z.boolean().default(false),
  meta: z.object({ title: z.string().min(1), description: z.string().max(300).optional() }),
  heading: z.string().min(1),
  /** Label in breadcrumbs (defaults to the URL segment with hyphens as spaces). */
  breadcrumbTitle: z.string().optional(),
  intro: richText.optional(),
  blocks: z.array(contentBlock).default([]),
  experiments: z.array(contentExperiment).default([]),
  fields: z.array(formField).default([]),
  messages: pageMessages.default({}),
  callsToAction: z.array(callToAction).default([]),
  /** Submit button text of the page's form. */
  submitText: z.string().optional(),
  /** Where the page's form goes next when it succeeds (for example registration -> check your email). */
  nextUrl: contentPath.optional(),
};

const page = <T extends string, S extends z.ZodRawShape>(type: T, extra: S) =>
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
    failureBlocks: z.array(contentBlock).default([]),
  }),
  page('ConfirmationPage', {}),
  page('PasswordPage', {
    mode: z.enum(['activation', 'recovery']),
  }),
  page('AuthenticationVerificationPage', {}),
  page('AuthenticationChallengePage', {
    /** Resend stays disabled this long after load and each click (spec: 30 s). */
    resendDelaySeconds: z.number().int().positive().default(30),
  }),
  page('LoginPage', {}),
  page('ResetPasswordPage', {}),
  page('DashboardPage', {}),
  page('StandardPageTemplate', {}),
  page('RedirectPage', {
    target: safeLink.refine((v) => v !== '', 'A redirect needs a target'),
    opensIn: opensIn.default('SameTab'),
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
    image: contentImage.optional(),
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
  id: z.string().optional(),
  key: z.string().optional(),
  condition: z.record(z.string(), z.unknown()).optional(),
  force: flagValue.optional(),
  variations: z.array(flagValue).optional(),
  weights: z.array(z.number().min(0).max(1)).optional(),
  coverage: z.number().min(0).max(1).optional(),
  hashAttribute: z.string().optional(),
  meta: z.array(z.looseObject({ key: z.string().optional(), name: z.string().optional() })).optional(),
});
export const featureDefinition = z.looseObject({
  defaultValue: flagValue,
  rules: z.array(featureRule).optional(),
});
export const featureDefinitions = z.looseObject({
  features: z.record(z.string(), featureDefinition),
  dateUpdated: z.string().optional(),
});
export type FeatureDefinitions = z.infer<typeof featureDefinitions>;

// ---------------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------------

/** No control characters (they never appear in a real path and break logs and caches). */
const queryText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Give exactly one value') })
    .min(1, 'Must not be empty')
    .max(max, `Must be at most ${max} characters`)
    .refine((v) => !controlChars.test(v), 'Must not contain control characters');

/**
 * `type` must be `SiteSettings` (the only settings type the portal reads; anything else is a 400).
 * `error=true` returns the same settings with `isErrorContext: true`.
 */
export const getSiteSettingsQuery = z.object({
  type: queryText(100).pipe(z.literal('SiteSettings', { error: 'Only type=SiteSettings is supported' })),
  error: z.enum(['true', 'false'], { error: 'Must be true or false' }).optional(),
});
export type GetSiteSettingsQuery = z.infer<typeof getSiteSettingsQuery>;

/** `relativeUrl` is the page's path (query and fragment are ignored); at most 2 KB. */
export const getPageQuery = z.object({
  relativeUrl: queryText(MAX_RELATIVE_URL_LENGTH).refine(
    (v) => v.startsWith('/') && !v.startsWith('//'),
    'Must be a site path starting with /',
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

export const featureDefinitionsParams = z.object({ clientKey: z.string().min(1).max(200) });

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
