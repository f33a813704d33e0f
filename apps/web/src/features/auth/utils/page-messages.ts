import { createPageMessages, plainText } from '../../../lib/content-messages';

/**
 * Texts these pages fall back on when content lacks a message. Content normally supplies every one
 * (content/pages/login*.json); these keep a journey explainable if an editor removes one.
 */
const fallbackMessages = {
  errorSummaryHeading: 'There is a problem',
  wrongCredentialsMessage: '<p>The email address or password is not right. Check them and try again.</p>',
  lockedOutMessage:
    '<p>Your account is locked for your security. Please wait 30 minutes and try again, or reset your password.</p>',
  passwordExpiredMessage: '<p>Your password has expired. Reset your password to continue.</p>',
  tooManyAttemptsMessage:
    '<p>There have been too many attempts. For your security, please wait a few minutes before you try again.</p>',
  unsupportedStatusMessage:
    '<p>We cannot finish signing you in online. Please call us free on {phone} and we will help you.</p>',
  apiError: '<p>Sorry, something went wrong. Please try again in a few minutes.</p>',
  lockoutHelpMessage:
    '<p>After 10 wrong attempts we lock the account for 30 minutes. If that has happened, you can sign in again from {time}, or unlock it now with a link we email to you.</p>',
  unlockButtonText: 'Email me a link to unlock my account',
  unlockSentMessage:
    '<p>If your account is locked, we have emailed a link to unlock it to {email}. The link works for 60 minutes.</p>',
  unlockedMessage: '<p>Your account is unlocked. Sign in with your email address and password.</p>',
  unlockLinkInvalidMessage:
    '<p>This unlock link has expired or has already been used. If your account is still locked, wait 30 minutes, or sign in and ask for a new link.</p>',
  signedOutMessage: '<p>You have signed out.</p>',
  sessionExpiredMessage: '<p>We signed you out because you had not done anything for a while.</p>',
  sessionEndedMessage: '<p>Your session has ended, so we signed you out. Please sign in again.</p>',
  signedOutElsewhereMessage:
    '<p>You have been signed out on this device because your account was signed out from another device or browser.</p>',
  journeyFailedMessage: '<p>Sorry, something went wrong. Please sign in again.</p>',
  noFactorsMessage:
    '<p>We do not have a phone number for you, so we cannot send a security code. Please call us free on {phone}.</p>',
  submitErrorMessage: '<p>That code is not right or has expired. Check the code and try again.</p>',
  formErrorMessage: '<p>Check the details you entered.</p>',
  passkeyButtonText: 'Sign in with a passkey',
  passkeyIntroText:
    '<p>If you have set up a passkey, you can use it instead of your password and a security code.</p>',
  passkeyFailedMessage:
    '<p>We could not sign you in with a passkey. Try again, or sign in with your email address and password.</p>',
  codeSentText: '<p>We have sent a code to {number}.</p>',
  codeSentByCallText: '<p>We are calling {number} now.</p>',
  resendText: 'Send a new code',
  resendWaitText: 'You can ask for a new code in {seconds} seconds',
  resendSuccessText: '<p>We have sent you a new code.</p>',
  helpHeading: 'Not received a code?',
  helpText:
    '<p>Text messages can take a few minutes to arrive. If you still do not have a code, ask for a new one.</p>',
  helpByCallText:
    '<p>If you missed the call or did not catch the code, ask for a new one and we will call you again.</p>',
  appCodeHeading: 'Enter the code from your authenticator app',
  appCodeLabel: 'Code from your app',
  appCodeHint: 'The 6-digit code your app shows now',
  appCodeErrorMessage: 'Enter the 6-digit code, using numbers only',
  appCodeWrongMessage:
    '<p>That code is not right. Check the code your app shows now and try again. Codes change every 30 seconds.</p>',
  backupCodeHeading: 'Enter a backup code',
  backupCodeLabel: 'Backup code',
  backupCodeHint: 'One of the codes you saved, for example ABCD-EFGH. Each code works once.',
  backupCodeErrorMessage: 'Enter the 8-character backup code',
  backupCodeWrongMessage:
    '<p>That backup code is not right or has been used. Check it and try again, or use another code.</p>',
  passkeyStepFailedMessage:
    '<p>We could not check your passkey. Try again, or choose another way to prove it is you.</p>',
  chooseAnotherText: 'Choose another way',
  continueText: 'Continue',
} as const;

export type MessageKey = keyof typeof fallbackMessages;

/** A page's message by key (content first, then the fallback), with placeholders filled. */
export const pageMessage = createPageMessages(fallbackMessages);

export { plainText };
