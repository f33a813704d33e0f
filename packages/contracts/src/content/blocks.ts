import { z } from 'zod/mini';
import { contentImage, contentPath, richText, safeLink } from './building-blocks';
import { formField, formFieldOption } from './form-fields';
import { callToAction } from './calls-to-action';
import { serviceAlert } from './site-settings';
import { activityChannels, activityKinds, activityMethods } from '../account-activity-kinds';

// ---------------------------------------------------------------------------------------------------
// Page blocks
// ---------------------------------------------------------------------------------------------------

export const blockBase = { id: z.string().check(z.minLength(1)), heading: z.optional(z.string()) };
export const texts = z.record(z.string(), z.string());
export const messages = z.record(z.string(), richText);

/** A heading, a body and buttons: the no-policies and no-quotes templates and override messages use it. */
export const messageBox = z.object({
  heading: z.string().check(z.minLength(1)),
  body: richText,
  callsToAction: z._default(z.array(callToAction), []),
});
export type MessageBox = z.infer<typeof messageBox>;

export const richTextBlock = z.looseObject({ ...blockBase, type: z.literal('richText'), html: richText });

export const callToActionListBlock = z.looseObject({
  ...blockBase,
  type: z.literal('callToActionList'),
  body: z.optional(richText),
  callsToAction: z.array(callToAction).check(z.minLength(1)),
});

export const personalDetailsBlock = z.looseObject({
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
  /** Shown while the profile loads ("Loading your details…"). */
  loadingText: z.string(),
});

/**
 * The password re-confirmation a guarded change (adding or removing a sign-in method, new backup codes)
 * asks for when the session has not signed in or confirmed the password within the last few minutes.
 */
export const reauthenticationTexts = z.object({
  heading: z.string(),
  body: richText,
  passwordLabel: z.string(),
  /** Beside the field when Confirm is pressed with it empty. */
  passwordRequiredMessage: z.string(),
  /** The password is not right. */
  passwordErrorMessage: richText,
  /** Anything else went wrong (network, server). */
  errorMessage: richText,
  confirmText: z.string(),
  cancelText: z.string(),
});
export type ReauthenticationTexts = z.infer<typeof reauthenticationTexts>;

/**
 * The code step of a change confirmed by a code (a new email address or mobile number, closing the online
 * account): `body` carries `{destination}` (the new address or number, or the masked phone).
 */
export const contactCodeStep = z.object({
  heading: z.string(),
  body: richText,
  codeLabel: z.string(),
  codeHint: z.string(),
  /** Inline, when the boxes are not all filled with digits. */
  codeErrorMessage: z.string(),
  /** Inline, when the server refuses the code (wrong, expired, used). */
  wrongCodeMessage: z.string(),
  resendText: z.string(),
  /** Carries `{seconds}`. */
  resendWaitText: z.string(),
  resendAvailableText: z.string(),
  resendSuccessMessage: richText,
  submitText: z.string(),
  backText: z.string(),
});
export type ContactCodeStep = z.infer<typeof contactCodeStep>;

/** Changing the email address or the mobile number from the contact details (issue 26): the new value, then the code. */
const contactChangeFlow = z.object({
  changeButtonText: z.string(),
  heading: z.string(),
  body: z.optional(richText),
  fieldLabel: z.string(),
  fieldHint: z.optional(z.string()),
  /** The email address typed again (email only). */
  confirmFieldLabel: z.optional(z.string()),
  requiredMessage: z.string(),
  invalidMessage: z.string(),
  /** The two addresses differ (email only). */
  mismatchMessage: z.optional(z.string()),
  /** The new value is the current one. */
  sameMessage: z.string(),
  sendCodeText: z.string(),
  cancelText: z.string(),
  code: contactCodeStep,
  successMessage: richText,
  /** Another account took the address between the code and its confirmation (email only). */
  inUseMessage: z.optional(richText),
  /** 429: too many codes or attempts for now. */
  tooManyMessage: richText,
  /** Anything else (the code could not be sent, the network). */
  errorMessage: richText,
});
export type ContactChangeFlow = z.infer<typeof contactChangeFlow>;

export const contactDetailsBlock = z.looseObject({
  ...blockBase,
  type: z.literal('contactDetails'),
  labels: z.object({ email: z.string(), mobile: z.string(), landline: z.string() }),
  errorText: richText,
  changeText: z.optional(richText),
  /** Shown while the profile loads ("Loading your details…"). */
  loadingText: z.string(),
  /** Without it, the email address cannot be changed here. */
  emailChange: z.optional(contactChangeFlow),
  /** Without it, the mobile number cannot be changed here. */
  mobileChange: z.optional(
    z.extend(contactChangeFlow, {
      addButtonText: z.string(),
      addHeading: z.string(),
      addedMessage: richText,
    }),
  ),
  /** The password dialog when a change needs a recent sign-in (403 REAUTHENTICATION_REQUIRED). */
  reauthenticate: z.optional(reauthenticationTexts),
  /**
   * Above a change form that gives back what the customer was typing when the inactivity timer signed
   * them out (kept in their browser for a day; never a code), and the button that empties it.
   */
  draftKeptText: z._default(
    z.string(),
    'We kept what you were typing when we signed you out. Check it, then carry on.',
  ),
  discardDraftText: z._default(z.string(), 'Start again'),
});

/** The modal's fields by name: the code (a mobileCode and a landlineCode field) and both passwords. */
const passwordModalFields = ['mfaPassCode', 'currentPassword', 'newPassword'] as const;

/** Password details with the two-step change modal (choose factor, then code and passwords). */
export const passwordDetailsBlock = z.looseObject({
  ...blockBase,
  heading: z.string(),
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
    /** The third choice, offered when the customer has an authenticator app: no code is sent. */
    appOptionLabel: z.string(),
    sendCodeText: z.string(),
    /** Step one's button when the app is chosen (nothing to send). */
    continueText: z.string(),
    /** Shown while the masked numbers load. */
    loadingText: z.string(),
    /** Beside the choice when Send code is pressed with none chosen. */
    methodRequiredMessage: z.string(),
    stepTwoHeading: z.string(),
    stepTwoBody: richText,
    /** Step two's words when the code comes from the app. */
    appStepTwoBody: richText,
    /** Sends the code again from step two (spec §4: unavailable for 30 seconds after it shows and after each use). */
    resendText: z.string(),
    /** The wait before the code can be sent again; carries `{seconds}`. */
    resendWaitText: z.string(),
    /** Announced when the code can be sent again. */
    resendAvailableText: z.string(),
    /** Shown when the code has been sent again. */
    resendSuccessMessage: richText,
    /** Must hold mfaPassCode (as mobileCode and landlineCode), currentPassword and newPassword. */
    fields: z
      .array(formField)
      .check(
        z.refine(
          (fields) =>
            passwordModalFields.every((name) => fields.some((f) => f.name === name)) &&
            ['mobileCode', 'landlineCode'].every((type) =>
              fields.some((f) => f.name === 'mfaPassCode' && f.type === type),
            ),
          'The password modal needs the mfaPassCode (mobileCode and landlineCode), currentPassword and newPassword fields',
        ),
      ),
    submitText: z.string(),
    cancelText: z.string(),
    backText: z.string(),
    successMessage: richText,
    updateErrorMessage: richText,
    codeErrorMessage: richText,
    /** A wrong or already used app code. */
    appCodeErrorMessage: richText,
    currentPasswordErrorMessage: richText,
    passwordErrorMessage: richText,
  }),
});

/** The authenticator app (TOTP): what it is, its state, setting it up with a QR code and removing it. */
export const authenticatorAppBlock = z.looseObject({
  ...blockBase,
  heading: z.string(),
  type: z.literal('authenticatorApp'),
  /** What an authenticator app is, in plain words, with examples. */
  body: richText,
  statusLabel: z.string(),
  notSetUpText: z.string(),
  /** Carries `{date}`. */
  setUpOnText: z.string(),
  lastUsedLabel: z.string(),
  neverUsedText: z.string(),
  loadingText: z.string(),
  loadErrorMessage: richText,
  setUpText: z.string(),
  /** Set up again (a new phone): replaces the app once the new one is confirmed. */
  replaceText: z.string(),
  removeText: z.string(),
  setUp: z.object({
    heading: z.string(),
    /** Step 1: install an app and scan the QR code. */
    scanBody: richText,
    /** The QR code's text alternative. */
    qrCodeAlt: z.string(),
    /** Introduces the key for typing instead of scanning. */
    keyIntro: richText,
    keyLabel: z.string(),
    /** Step 2: the code the app shows. */
    codeLabel: z.string(),
    codeHint: z.string(),
    codeErrorMessage: z.string(),
    wrongCodeMessage: richText,
    lockedMessage: richText,
    errorMessage: richText,
    submitText: z.string(),
    cancelText: z.string(),
  }),
  successMessage: richText,
  remove: z.object({
    heading: z.string(),
    body: richText,
    confirmText: z.string(),
    cancelText: z.string(),
    errorMessage: richText,
  }),
  removedMessage: richText,
  reauthenticate: reauthenticationTexts,
});

/** Backup codes: how many are left, creating a new set (shown once, print and download), removing them. */
export const backupCodesBlock = z.looseObject({
  ...blockBase,
  heading: z.string(),
  type: z.literal('backupCodes'),
  body: richText,
  loadingText: z.string(),
  loadErrorMessage: richText,
  noneText: z.string(),
  /** Carries `{count}`. */
  codesLeftText: z.string(),
  createText: z.string(),
  createNewText: z.string(),
  /** Shown before replacing a set: the old codes stop working. */
  replaceWarning: richText,
  replaceConfirmText: z.string(),
  cancelText: z.string(),
  errorMessage: richText,
  shown: z.object({
    heading: z.string(),
    body: richText,
    listLabel: z.string(),
    printText: z.string(),
    downloadText: z.string(),
    /** The download's first line; carries `{date}`. */
    fileHeading: z.string(),
    fileName: z.string(),
    doneText: z.string(),
  }),
  removeText: z.string(),
  remove: z.object({
    heading: z.string(),
    body: richText,
    confirmText: z.string(),
    cancelText: z.string(),
    errorMessage: richText,
  }),
  removedMessage: richText,
  reauthenticate: reauthenticationTexts,
});

export const policyDetailsBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyDetails'),
  labels: texts,
  /** Shown instead of an annual premium of 0. */
  zeroPremiumText: z.string(),
  errorText: richText,
});

export const policiesGridBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policiesGrid'),
  filterLabels: z.object({ active: z.string(), upcoming: z.string(), expired: z.string() }),
  filterAriaLabel: z.string(),
  loadMoreText: z.string(),
  /** Announced after load more, with the number added: "More bills shown: {count}". */
  loadMoreAddedText: z.string(),
  /** "{count} {status} policies available to view". */
  availableText: z.string(),
  viewPolicyText: z.string(),
  labels: texts,
  pageSize: z._default(z.number().check(z.int(), z.positive()), 3),
  errorText: richText,
  noPolicies: messageBox,
});

export const renewalsGridBlock = z.looseObject({
  ...blockBase,
  type: z.literal('renewalsGrid'),
  body: z.optional(richText),
  labels: texts,
  viewRenewalText: z.string(),
});

/** Marketing channels (checkbox ids 111, 222, 333) and the tailored online yes/no (7654987 / 7654988). */
export const marketingPreferencesBlock = z.looseObject({
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
  /** Shown while the preferences load ("Loading your preferences…"). */
  loadingText: z.string(),
});

export const correspondencePreferencesBlock = z.looseObject({
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
  /** Shown while the preferences load ("Loading your preferences…"). */
  loadingText: z.string(),
});

/**
 * How the customer is told of new documents and messages (issue 40): email (always while paperless, then
 * said rather than offered) and text message to the mobile on record (`textLabel` carries `{mobile}`).
 */
export const noticePreferencesBlock = z.looseObject({
  ...blockBase,
  type: z.literal('noticePreferences'),
  body: z.optional(richText),
  /** The question the checkboxes answer. */
  legend: z.string(),
  emailLabel: z.string(),
  /** Said instead of the email checkbox while the customer is paperless. */
  emailRequiredText: richText,
  /** Carries `{mobile}`: the masked mobile on record. */
  textLabel: z.string(),
  /** Under the text checkbox: when texts are not sent (the quiet hours). */
  textHint: z.string(),
  /** Said instead of the text checkbox when no mobile is on record (may link to the contact details). */
  noMobileText: richText,
  saveText: z.string(),
  successMessage: richText,
  errorMessage: richText,
  loadErrorMessage: richText,
  loadingText: z.string(),
});

export const agencyCardBlock = z.looseObject({
  ...blockBase,
  type: z.literal('agencyCard'),
  body: z.optional(richText),
  labels: texts,
  mapLinkText: z.string(),
  /** Carries `{open}` and `{close}`. */
  openingHoursText: z.string(),
  fallback: messageBox,
});

export const contextualHelpItem = z.object({
  id: z.string(),
  heading: z.string(),
  body: richText,
  callsToAction: z._default(z.array(callToAction), []),
  allowMTA: z.optional(z.boolean()),
  displayFilter: z.optional(z.enum(['Enabled', 'Disabled', 'PolicyRenewalCustomerReady'])),
  productTypes: z.optional(z.array(z.string())),
});
export const agencyContextualHelpBlock = z.looseObject({
  ...blockBase,
  type: z.literal('agencyContextualHelp'),
  body: richText,
});
export const policyContextualHelpBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyContextualHelp'),
  items: z.array(contextualHelpItem).check(z.minLength(1)),
});

export const documentMessages = z.object({
  apiError: richText,
  noDocsError: richText,
  noDocsErrorHeading: z.string(),
  fileError: richText,
});

export const billingDocumentsBlock = z.looseObject({
  ...blockBase,
  heading: z.string(),
  type: z.literal('billingDocuments'),
  body: z.optional(richText),
  /** Shown while the first page loads ("Loading your bills…"). */
  loadingText: z.string(),
  accountLabel: z.string(),
  viewPdfText: z.string(),
  loadMoreText: z.string(),
  /** Announced after load more, with the number added: "More bills shown: {count}". */
  loadMoreAddedText: z.string(),
  pageSize: z.object({
    mobile: z.number().check(z.int(), z.positive()),
    desktop: z.number().check(z.int(), z.positive()),
  }),
  messages: documentMessages,
});

export const policyDocumentPacksBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyDocumentPacks'),
  body: z.optional(richText),
  downloadText: z.string(),
  loadMoreText: z.string(),
  /** Announced after load more, with the number added: "More bills shown: {count}". */
  loadMoreAddedText: z.string(),
  createdLabel: z.string(),
  pageSize: z.object({
    mobile: z.number().check(z.int(), z.positive()),
    desktop: z.number().check(z.int(), z.positive()),
  }),
  messages: documentMessages,
  /** Heading above the inserts. */
  insertsHeading: z.optional(z.string()),
  /**
   * Policy document inserts: standard leaflets for every customer with one of `productTypes`, downloaded
   * like the policy's own documents (a blank `url` fails with "Blank document URL", spec §8).
   */
  inserts: z._default(
    z.array(
      z.object({ id: z.string(), title: z.string(), productTypes: z.array(z.string()), url: safeLink }),
    ),
    [],
  ),
});

export const policyCoverInsertBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyCoverInsert'),
  body: z.optional(richText),
  labels: texts,
  /**
   * Shown when a list of valuables is longer than the display limit. Missing configuration is logged as an
   * error and the spec's fallback text shows instead (spec customer-data §8, §9).
   */
  tooManyItemsMessage: z.optional(z.string()),
  maxItems: z._default(z.number().check(z.int(), z.positive()), 20),
  unknownArtTypeLabel: z.string(),
  errorText: richText,
});

export const policyCoverCallToActionBlock = z.looseObject({
  ...blockBase,
  type: z.literal('policyCoverCallToAction'),
  /** Used when the policy allows viewing the renewal online. */
  onlineRenewal: messageBox,
  /** Used for a policy in force that can be changed online (allowMTA), or when no other box applies. */
  standard: messageBox,
  /**
   * Used for a policy in force that cannot be changed online (allowMTA false, such as a migration renewal):
   * words and buttons that promise no online change. Without it, the standard box without its online change.
   */
  noOnlineChanges: z.optional(messageBox),
  /** Used for an expired policy, which can no longer be changed; without it, an expired policy shows no box. */
  expired: z.optional(messageBox),
});

export const quotesBlock = z.looseObject({
  ...blockBase,
  type: z.literal('quotes'),
  body: z.optional(richText),
  labels: texts,
  downloadText: z.string(),
  continueOnlineText: z.string(),
  /**
   * Why continue online is not available for a quote, beside its disabled button; `{phone}` is filled with
   * the site's freephone number (settings' infinityPhoneTracking).
   */
  continueByPhoneText: z.string(),
  noQuotes: messageBox,
  fileError: richText,
});

/** One answer to the contact form's secondary question; `override` replaces the text box. */
export const contactSecondaryAnswer = z.object({
  id: z.string(),
  label: z.string(),
  messageType: z.string().check(z.minLength(1)),
  override: z.optional(messageBox),
});
export const contactPrimaryAnswer = z.object({
  id: z.string(),
  label: z.string(),
  /** The product type the message is about, sent as productType. */
  productType: z.string().check(z.minLength(1)),
  secondaryAnswers: z.array(contactSecondaryAnswer).check(z.minLength(1)),
});
export const contactFormBlock = z.looseObject({
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
  /** Names the form for assistive technology ("Contact us"). */
  formLabel: z.string(),
  errorSummaryHeading: z.string(),
  /** Beside the primary question when it is left unanswered. */
  primaryRequiredMessage: z.string(),
  /** Beside the secondary question when it is left unanswered. */
  secondaryRequiredMessage: z.string(),
  message: formField,
  /** "You have {count} characters remaining". */
  remainingText: z.string(),
  submitText: z.string(),
  successUrl: contentPath,
  errorHtml: richText,
  /**
   * Above the form when it gives back what the customer was typing when the inactivity timer signed them
   * out (kept in their browser for a day), and the button that empties it.
   */
  draftKeptText: z._default(
    z.string(),
    'We kept the message you were writing when we signed you out. Check it, then send it.',
  ),
  discardDraftText: z._default(z.string(), 'Start again'),
});

/** Cross-sell: `policyTypeFilter` is a comma list of product types with condition ALL, ANY or NONE. */
export const crossSellBannerBlock = z.looseObject({
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

export const serviceAlertBlock = z.looseObject({
  ...blockBase,
  type: z.literal('serviceAlert'),
  alert: serviceAlert,
});

export const noPoliciesTemplateBlock = z.looseObject({
  ...blockBase,
  type: z.literal('noPoliciesTemplate'),
  content: messageBox,
});

export const tabbedNavigationBlock = z.looseObject({
  ...blockBase,
  type: z.literal('tabbedNavigation'),
  ariaLabel: z.string(),
  /** Links carry the policy id query parameter the SPA adds. */
  tabs: z.array(z.object({ id: z.string(), title: z.string(), url: contentPath })).check(z.minLength(1)),
});

/**
 * The profile's passkeys (decision 024): what a passkey is in plain words, the customer's passkeys (name,
 * added, last used), adding one (a name, then the browser's prompt), renaming and removing one.
 */
export const passkeysBlock = z.looseObject({
  ...blockBase,
  heading: z.string(),
  type: z.literal('passkeys'),
  /** What a passkey is, for people who have never heard of one. */
  intro: richText,
  /** Shown instead of the add button when this browser cannot make passkeys. */
  notSupportedText: richText,
  loadingText: z.string(),
  /** The list could not be read. */
  errorText: richText,
  noPasskeysText: richText,
  addedLabel: z.string(),
  lastUsedLabel: z.string(),
  neverUsedText: z.string(),
  addButtonText: z.string(),
  /** The name field of adding and renaming: label, hint, errorMessage (required, at most 60 characters). */
  nameField: formField,
  /** Suggested name when adding (the field starts with it). */
  defaultName: z.string(),
  addSubmitText: z.string(),
  renameButtonText: z.string(),
  renameSubmitText: z.string(),
  removeButtonText: z.string(),
  /** The removal's confirmation: heading and body carry `{name}`. */
  removeHeading: z.string(),
  removeBody: richText,
  removeConfirmText: z.string(),
  cancelText: z.string(),
  addedMessage: richText,
  renamedMessage: richText,
  removedMessage: richText,
  /** The browser's prompt was closed or failed, or the server refused the new passkey. */
  addFailedMessage: richText,
  /** Any other failed save: the typed name stays. */
  updateErrorMessage: richText,
  /** The password dialog when adding or removing needs a recent sign-in (403 REAUTHENTICATION_REQUIRED). */
  reauthenticate: reauthenticationTexts,
});

/** Closing the online account (issue 26): what it means, a code by text or call, then the confirmation. */
export const closeAccountBlock = z.looseObject({
  ...blockBase,
  heading: z.string(),
  type: z.literal('closeAccount'),
  /** What closing keeps and removes, in plain words. */
  body: richText,
  methodLegend: z.string(),
  /** Carry `{number}`: the customer's number, masked. */
  smsOptionLabel: z.string(),
  callOptionLabel: z.string(),
  loadingText: z.string(),
  methodRequiredMessage: z.string(),
  sendCodeText: z.string(),
  code: contactCodeStep,
  /** A code to a landline has 5 digits: the hint and inline error then. */
  landlineCodeHint: z.string(),
  landlineCodeErrorMessage: z.string(),
  tooManyMessage: richText,
  errorMessage: richText,
  /** Where the browser goes once the account is closed (a public content page). */
  closedPath: z._default(contentPath, '/account-closed'),
  reauthenticate: reauthenticationTexts,
});

/**
 * The offer to set up a passkey once a new registration's first code is accepted (issue 25 point 5): what a
 * passkey is in plain words, "Set up a passkey" (named `defaultName`; renamed later in the profile) and
 * "Not now" (not asked again for 30 days). Either way the customer then goes on to their account.
 */
export const passkeyOfferBlock = z.looseObject({
  ...blockBase,
  heading: z.string(),
  type: z.literal('passkeyOffer'),
  /** What a passkey is, for people who have never heard of one. */
  intro: richText,
  setUpText: z.string(),
  notNowText: z.string(),
  /** Under the buttons: it can be done later from the profile. */
  laterText: richText,
  /** The name the new passkey gets. */
  defaultName: z.string().check(z.minLength(1), z.maxLength(60)),
  addedMessage: richText,
  /** The browser's prompt was closed or failed, or the server refused the passkey. */
  addFailedMessage: richText,
  /** This browser cannot make passkeys (the page was opened directly). */
  notSupportedText: richText,
  continueText: z.string(),
  /** The password dialog, when the sign-in is no longer recent (403 REAUTHENTICATION_REQUIRED). */
  reauthenticate: reauthenticationTexts,
});

/**
 * "Where you're signed in" (issue 26, decision 025): each live sign-in session (browser on system, this
 * device marked, when signed in and last used, the masked network), signing one or every other out.
 */
export const signInSessionsBlock = z.looseObject({
  ...blockBase,
  heading: z.string(),
  type: z.literal('signInSessions'),
  body: richText,
  loadingText: z.string(),
  loadErrorMessage: richText,
  /** Carries `{browser}` and `{os}`. */
  deviceText: z.string(),
  /** When the browser or the system could not be told. */
  unknownBrowserText: z.string(),
  unknownSystemText: z.string(),
  thisDeviceText: z.string(),
  signedInLabel: z.string(),
  lastUsedLabel: z.string(),
  /** "Last used" within the last two minutes. */
  justNowText: z.string(),
  networkLabel: z.string(),
  unknownNetworkText: z.string(),
  signOutText: z.string(),
  /** The sign-out button's accessible name; carries `{device}` and `{signedIn}`. */
  signOutLabel: z.string(),
  signOutOthersText: z.string(),
  noOthersText: z.string(),
  /** Announced after one session is signed out; carries `{device}`. */
  signedOutMessage: richText,
  /** Announced after every other session is signed out; carries `{count}`. */
  signedOutOthersMessage: richText,
  errorMessage: richText,
  /**
   * A shared view's row (issue 41 point 6): its heading carries `{name}`, the staff member looking; its
   * button ends it.
   */
  viewerText: z.optional(z.string()),
  viewerBody: z.optional(richText),
  stopViewingText: z.optional(z.string()),
});

/**
 * "Share your screen with us" (issue 41 point 6, decision 039): the customer makes a one-time code to
 * read to the contact centre, who can then see their account read only for 30 minutes at most.
 */
export const screenShareBlock = z.looseObject({
  ...blockBase,
  heading: z.string(),
  type: z.literal('screenShare'),
  body: richText,
  getCodeText: z.string(),
  newCodeText: z.string(),
  loadingText: z.string(),
  /** Above the code. */
  codeLabel: z.string(),
  /** Under the code; carries `{time}`, when it stops working (UK time). */
  codeBody: richText,
  errorMessage: richText,
  tooManyMessage: richText,
});

/** The activity kinds (the account activity's closed list), as the block's keys. */
const activityKind = z.enum(activityKinds);

/**
 * "Your account activity" (decision 027): the customer's security and consent history, grouped by day in
 * UK time, with "Show older activity". Every sentence is here: a title for each kind, and for some kinds
 * detail lines whose placeholders ({method}, {destination}, {browser}, {channels}, {choice}, {about},
 * {scope}, {count}, {until}) are filled from the item; a line whose placeholder the item lacks is left out.
 */
export const accountActivityBlock = z.looseObject({
  ...blockBase,
  type: z.literal('accountActivity'),
  intro: z.optional(richText),
  loadingText: z.string(),
  /** The first page could not be read (also shown under the list when an older page cannot be). */
  errorText: richText,
  emptyText: richText,
  showOlderText: z.string(),
  /** Announced when older items show; carries `{count}`. */
  olderShownText: z.string(),
  /** Shown under the last item once there is nothing older. */
  endText: z.optional(z.string()),
  /** Each item's time, read before it by screen readers ("At"). */
  timeLabel: z.string(),
  kinds: z.record(activityKind, z.string()),
  details: z.partialRecord(activityKind, z.array(z.string())),
  methods: z.record(z.enum(activityMethods), z.string()),
  channels: z.record(z.enum(activityChannels), z.string()),
  /** {channels} when the customer chose none. */
  noChannelsText: z.string(),
  /** {choice} of a paperless choice. */
  paperlessText: z.string(),
  paperText: z.string(),
  /** {scope} of sessions ended. */
  scopes: z.object({ one: z.string(), others: z.string() }),
  /** {about} of a contact-us message: product type to words, and the words for any other. */
  contactTopics: texts,
  contactTopicFallback: z.string(),
});

export const faqBlock = z.looseObject({
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
  authenticatorAppBlock,
  backupCodesBlock,
  passkeysBlock,
  closeAccountBlock,
  accountActivityBlock,
  passkeyOfferBlock,
  signInSessionsBlock,
  screenShareBlock,
  policyDetailsBlock,
  policiesGridBlock,
  renewalsGridBlock,
  marketingPreferencesBlock,
  correspondencePreferencesBlock,
  noticePreferencesBlock,
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
