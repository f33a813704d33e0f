import type { OutboundMessage } from '../../platform/notifier';

/**
 * The emails of the identity journeys. Links are built from PUBLIC_URL (configuration), never from the
 * request's Host header, so a forged Host cannot send a customer's link elsewhere.
 */

interface Person {
  firstName: string;
  lastName: string;
  customerId: string;
}

const signOff =
  '\n\nIf you did not ask for this, you can ignore this email: nothing changes on your account.\n';

export function activationEmail(
  to: string,
  person: Person,
  publicUrl: string,
  token: string,
): OutboundMessage {
  const link = `${publicUrl}/register/activate?token=${encodeURIComponent(token)}`;
  return {
    channel: 'email',
    to,
    kind: 'activation',
    customerId: person.customerId,
    subject: 'Finish setting up your online account',
    text:
      `Dear ${person.firstName} ${person.lastName},\n\n` +
      'Thank you for registering for your online account. To finish, open this link within 24 hours and ' +
      'choose a password:\n\n' +
      `${link}\n\n` +
      'We will then send a security code to your phone to check it is you.' +
      signOff,
  };
}

export function alreadyRegisteredEmail(to: string, person: Person, publicUrl: string): OutboundMessage {
  return {
    channel: 'email',
    to,
    kind: 'already-registered',
    customerId: person.customerId,
    subject: 'You already have an online account',
    text:
      `Dear ${person.firstName} ${person.lastName},\n\n` +
      'Someone, probably you, tried to register for an online account with this email address. ' +
      'You already have an account, so there is no need to register again.\n\n' +
      `Sign in at ${publicUrl}/login\n\n` +
      'If you have forgotten your password, choose "Forgotten your password?" on the sign-in page to reset it.' +
      signOff,
  };
}

export function passwordResetEmail(
  to: string,
  person: Person,
  publicUrl: string,
  token: string,
): OutboundMessage {
  const link = `${publicUrl}/forgotten-password/new-password?token=${encodeURIComponent(token)}`;
  return {
    channel: 'email',
    to,
    kind: 'password-reset',
    customerId: person.customerId,
    subject: 'Reset your password',
    text:
      `Dear ${person.firstName} ${person.lastName},\n\n` +
      'We received a request to reset the password of your online account. Open this link within 60 minutes ' +
      'to choose a new password:\n\n' +
      `${link}\n\n` +
      'We will then send a security code to your phone to check it is you.' +
      signOff,
  };
}

/** The unlock link: opens the sign-in page, which unlocks the account with it (POST, so a mail scanner's visit does not). */
export function unlockEmail(to: string, person: Person, publicUrl: string, token: string): OutboundMessage {
  const link = `${publicUrl}/login?unlock=${encodeURIComponent(token)}`;
  return {
    channel: 'email',
    to,
    kind: 'unlock',
    customerId: person.customerId,
    subject: 'Unlock your online account',
    text:
      `Dear ${person.firstName} ${person.lastName},\n\n` +
      'Your online account was locked because the wrong password or security code was entered too many times. ' +
      'To unlock it now, open this link within 60 minutes:\n\n' +
      `${link}\n\n` +
      'Then sign in with your email address and password. If you have forgotten your password, choose ' +
      '"Forgotten your password?" on the sign-in page instead.' +
      signOff,
  };
}

/** What happened to the customer's sign-in methods, for the security email. */
export type SecurityEvent =
  | 'app-added'
  | 'app-removed'
  | 'backup-codes-created'
  | 'backup-codes-removed'
  | 'backup-code-used'
  | 'passkey-added'
  | 'passkey-removed';

const securityWords: Record<SecurityEvent, { subject: string; what: string }> = {
  'app-added': {
    subject: 'An authenticator app was added to your account',
    what: 'An authenticator app was set up to sign in to your online account',
  },
  'app-removed': {
    subject: 'An authenticator app was removed from your account',
    what: 'The authenticator app was removed from your online account',
  },
  'backup-codes-created': {
    subject: 'New backup codes for your account',
    what: 'A new set of backup codes was created for your online account; any earlier codes no longer work',
  },
  'backup-codes-removed': {
    subject: 'Your backup codes were removed',
    what: 'The backup codes of your online account were removed; none of them works any more',
  },
  'passkey-added': {
    subject: 'A passkey was added to your account',
    what: 'A passkey was added to sign in to your online account',
  },
  'passkey-removed': {
    subject: 'A passkey was removed from your account',
    what: 'A passkey was removed from your online account; it can no longer be used to sign in',
  },
  'backup-code-used': {
    subject: 'A backup code was used to sign in',
    what: 'One of your backup codes was used to sign in to your online account',
  },
};

/** A sign-in method was added, removed or used in a way the customer should know of (issue 25 point 6). */
export function securityEmail(
  to: string,
  person: Person,
  publicUrl: string,
  event: SecurityEvent,
  at: Date,
): OutboundMessage {
  const words = securityWords[event];
  const when = at.toLocaleString('en-GB', {
    timeZone: 'Europe/London',
    dateStyle: 'long',
    timeStyle: 'short',
  });
  return {
    channel: 'email',
    to,
    kind: `security-${event}`,
    customerId: person.customerId,
    subject: words.subject,
    text:
      `Dear ${person.firstName} ${person.lastName},\n\n` +
      `${words.what} on ${when} (UK time).\n\n` +
      'If this was you, there is nothing more to do.\n\n' +
      'If it was not you, someone may know your password: reset it now with "Forgotten your password?" at ' +
      `${publicUrl}/login and call us so we can check your account.\n`,
  };
}

/**
 * A sign-in from a browser not seen on the account for KNOWN_BROWSER_DAYS (issue 26 point 5): when (UK
 * time), which browser, from which network (masked), and what to do if it was not them.
 */
export function newDeviceEmail(
  to: string,
  person: Person,
  publicUrl: string,
  signIn: { at: Date; browser: string | null; os: string | null; network: string | null },
): OutboundMessage {
  const when = signIn.at.toLocaleString('en-GB', {
    timeZone: 'Europe/London',
    dateStyle: 'long',
    timeStyle: 'short',
  });
  const browser =
    signIn.browser && signIn.os
      ? `${signIn.browser} on ${signIn.os}`
      : (signIn.browser ?? signIn.os ?? 'a browser we could not recognise');
  return {
    channel: 'email',
    to,
    kind: 'security-new-device',
    customerId: person.customerId,
    subject: 'A new sign-in to your account',
    text:
      `Dear ${person.firstName} ${person.lastName},\n\n` +
      'Your online account was signed in to from a browser we have not seen you use recently.\n\n' +
      `When: ${when} (UK time)\n` +
      `Browser: ${browser}\n` +
      `Network: ${signIn.network ?? 'not known'}\n\n` +
      'If this was you, there is nothing more to do.\n\n' +
      'Not you? Change your password and sign out of every other device straight away, on the ' +
      `"Sign-in and security" page: ${publicUrl}/profile/login-security\n\n` +
      'If you cannot sign in, reset your password with "Forgotten your password?" at ' +
      `${publicUrl}/login and call us, free on 0800 123 4567.\n`,
  };
}
