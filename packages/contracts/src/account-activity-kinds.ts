/*
 * The closed lists of the account activity (account-activity.ts), apart from its call and schemas: the
 * content contract's account-activity block is keyed by them, and the content calls, which every page the
 * SPA renders itself loads at start, need them without the activity call's schemas (issue 27).
 */

/** What happened. The screen has a sentence for each (content); a new kind needs a new sentence. */
export const activityKinds = [
  /** A sign-in completed (password and code, or a passkey). */
  'signed-in',
  /** A sign-in refused: the password was wrong. */
  'sign-in-wrong-password',
  /** A sign-in refused because the account was locked. */
  'sign-in-while-locked',
  /** Too many wrong passwords or codes: the account was locked for a while (`until`). */
  'account-locked',
  /** The account was unlocked from the emailed link. */
  'account-unlocked',
  /** A security code was sent (`method`, `destination`). */
  'code-sent',
  /** A security code (or passkey) was not accepted. */
  'code-wrong',
  /** A wrong password when confirming it while signed in (before a change). */
  'password-check-wrong',
  'password-changed',
  /** A forgotten-password link was asked for. */
  'password-reset-requested',
  /** A new password was set from a forgotten-password link. */
  'password-reset',
  /** The online account was activated (the first password set). */
  'account-activated',
  'email-changed',
  'mobile-changed',
  /** A way to sign in was added (`method`). */
  'method-added',
  'method-removed',
  /** A new set of backup codes replaced any earlier one. */
  'backup-codes-created',
  /** The customer signed out of this browser. */
  'signed-out',
  /** Sessions ended from "Where you are signed in" (`scope`, `count`). */
  'sessions-ended',
  /** We emailed about a sign-in from a browser not seen before (`browser`). */
  'new-device-email',
  /** Marketing choice saved: the channels chosen (`channels`, empty for none). */
  'marketing-choice',
  /** Paperless choice saved (`paperless`). */
  'paperless-choice',
  /** How to be told of new documents and messages saved (email, text; issue 40). */
  'notice-choice',
  /** A contact-us message was sent (`about`: the product type it was about). */
  'contact-message-sent',
  /** We emailed that new documents are in the online account (a paperless customer; issue 40). */
  'document-notice-sent',
  /** That email could not be delivered: the insurer was told, to post the documents. */
  'document-notice-failed',
  /** We texted that new documents are in the online account (the customer chose texts). */
  'document-notice-texted',
  /** That text could not be delivered. */
  'document-notice-text-failed',
  'account-closed',
  /* What the insurer's contact centre did for the customer, on their behalf (issue 41 point 5). */
  /** It lifted the lockout of the customer's sign-in. */
  'contact-centre-unlocked',
  /** It sent the activation link again. */
  'contact-centre-activation-sent',
  /** It signed the customer out everywhere (`count`: how many sign-ins ended). */
  'contact-centre-signed-out',
  /** It removed a way to sign in (`method`: the authenticator app, a passkey, the backup codes). */
  'contact-centre-method-removed',
  /** It changed the email address (`destination`, masked). */
  'contact-centre-email-changed',
  /* Sharing the screen with the contact centre (issue 41 point 6). */
  /** The customer made a code to share their screen. */
  'share-code-created',
  /** The contact centre began to view the account, read only, with the customer's code. */
  'contact-centre-view-started',
  /** ...and saw a page (`page`: its title). */
  'contact-centre-viewed-page',
  /** ...and closed the view. */
  'contact-centre-view-ended',
  /** The customer ended the contact centre's view from "Where you're signed in". */
  'shared-view-ended',
] as const;

/** How: the kind of code or sign-in method. */
export const activityMethods = [
  'text',
  'call',
  'email',
  'authenticator-app',
  'backup-code',
  'backup-codes',
  'passkey',
] as const;

export const activityChannels = ['email', 'phone', 'post', 'online'] as const;
