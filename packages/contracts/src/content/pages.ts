import { z } from 'zod/mini';
import { contentImage, contentPath, opensIn, richText, safeLink } from './building-blocks';
import { formField } from './form-fields';
import { callToAction } from './calls-to-action';
import { contentBlock, contentExperiment, messages } from './blocks';
import { messageCategories } from '../message-categories';

// ---------------------------------------------------------------------------------------------------
// Pages
// ---------------------------------------------------------------------------------------------------

/**
 * Named texts of a page. Known keys: wrongCredentialsMessage, submitErrorMessage, apiError, noDocsError,
 * noDocsErrorHeading, fileError, errorSavingChangesMessage, errorMessage, updateErrorMessage,
 * invalidTokenMessage (registration `?warning=bad-token`), expiredLinkMessage (forgotten password
 * `?warning=bad-token`), incorrectEmailMessage (OK_1),
 * needMoreDataMessage, lockedOutMessage, passwordExpiredMessage, resendText, codeSentText, formErrorMessage,
 * errorSummaryHeading.
 */
export const pageMessages = messages;

export const pageBase = {
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

const pageSize = z.object({
  mobile: z.number().check(z.int(), z.positive()),
  desktop: z.number().check(z.int(), z.positive()),
});

/**
 * "Your messages" (issue 40 point 6): the page lists the customer's messages from the insurer without a
 * query string, and opens one with `?id={messageId}` (as a policy page takes its policy). Every text the
 * two views show.
 */
const messagesPageTexts = {
  /** The list (the page's `heading` is its heading). */
  list: z.object({
    /** Shown while the first page loads ("Loading your messages"). */
    loadingText: z.string(),
    apiError: richText,
    /** When there are none: "You have no messages". */
    emptyHeading: z.string(),
    emptyText: richText,
    /** Marks a message not opened yet, seen and heard with its subject ("Unread"). */
    unreadText: z.string(),
    /** Before each message's date ("Received"). */
    receivedLabel: z.string(),
    loadMoreText: z.string(),
    /** Announced after load more: "More messages shown: {count}". */
    loadMoreAddedText: z.string(),
    pageSize,
  }),
  /** One message (its subject is the page's heading there). */
  message: z.object({
    loadingText: z.string(),
    /** The id is not one of the customer's messages (or it has expired or been removed). */
    notFoundText: richText,
    apiError: richText,
    receivedLabel: z.string(),
    /** Above the message's links ("About this message"). */
    linksHeading: z.string(),
    /** The link to the policy's page: `{productName}` and `{policyNumber}`. */
    policyLinkText: z.string(),
    /** The linked document's button ("Download"), its name read with it. */
    documentButtonText: z.string(),
    /** Beside the document when its PDF cannot be opened. */
    fileError: richText,
    /** Back to the list. */
    backText: z.string(),
  }),
  /** Each category's words, shown with each message. */
  categories: z.record(z.enum(messageCategories), z.string()),
};

export const page = <T extends string, S extends z.core.$ZodLooseShape>(type: T, extra: S) =>
  z.looseObject({ ...pageBase, type: z.literal(type), ...extra });

import type { PageType } from './page-types';

export { pageTypes, type PageType } from './page-types';

export const pageContent = z.discriminatedUnion('type', [
  page('RegistrationPage', {
    /** Blocks shown when registration answers OK_2 (we could not match the details). */
    failureBlocks: z._default(z.array(contentBlock), []),
  }),
  page('ConfirmationPage', {}),
  page('PasswordPage', {
    mode: z.enum(['activation', 'recovery']),
    /**
     * Where a missing, expired or used link goes, with `?warning=bad-token` (spec: the registration page;
     * a reset link goes to the forgotten-password page, which offers a new link).
     */
    invalidLinkUrl: z._default(contentPath, '/register'),
  }),
  page('AuthenticationVerificationPage', {}),
  page('AuthenticationChallengePage', {
    /** Resend stays disabled this long after load and each click (spec: 30 s). */
    resendDelaySeconds: z._default(z.number().check(z.int(), z.positive()), 30),
  }),
  page('LoginPage', {}),
  page('ResetPasswordPage', {
    /** Where a signed-in customer goes instead: they change their password in their profile. */
    signedInUrl: z._default(contentPath, '/profile/login-security'),
  }),
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
  page('MessagesPage', messagesPageTexts),
  page('ErrorPage', {}),
  page('MaintenancePage', {}),
]);
export type PageContent = z.infer<typeof pageContent>;
export type PageContentInput = z.input<typeof pageContent>;
/** One page type, e.g. `PageOf<'PasswordPage'>`. */
export type PageOf<T extends PageType> = Extract<PageContent, { type: T }>;
