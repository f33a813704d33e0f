import { createPageMessages, plainText } from '../../../lib/content-messages';

/**
 * Texts these pages fall back on when content lacks a message. Content normally supplies them
 * (content/pages/register*.json, forgotten-password*.json); these keep a journey explainable if an editor
 * removes one.
 */
const fallbackMessages = {
  errorSummaryHeading: 'There is a problem',
  invalidTokenMessage:
    '<p>The link you used has expired or has already been used. Please register again and we will send you a new link.</p>',
  expiredLinkMessage:
    '<p>The link you used has expired or has already been used. Enter your email address and we will send you a new link.</p>',
  incorrectEmailMessage:
    '<p>The email address does not match the one on your policy. Check it and try again, or call us free on {phone}.</p>',
  needMoreDataMessage:
    '<p>We need a little more information to find your policy. Please enter your policy number.</p>',
  passwordRejectedMessage: '<p>Choose a different password.</p>',
  sameAsCurrentPasswordMessage: 'Your new password must be different from your current password',
  tooManyAttemptsMessage:
    '<p>There have been too many attempts. For your security, please wait a few minutes before you try again.</p>',
  apiError: '<p>Sorry, something went wrong. Please try again in a few minutes.</p>',
  formErrorMessage: '<p>Check the details you entered.</p>',
  checkingLinkText: 'Checking your link',
  needMoreDataHeading: 'We need your policy number',
} as const;

export type MessageKey = keyof typeof fallbackMessages;

/** A page's message by key (content first, then the fallback), with placeholders filled. */
export const pageMessage = createPageMessages(fallbackMessages);

export { plainText };
