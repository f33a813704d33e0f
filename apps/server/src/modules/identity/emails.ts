import {
  action,
  code,
  emailMessage,
  facts,
  link,
  paragraph,
  type OutboundMessage,
} from '../../platform/notifier';

/**
 * The emails of the identity journeys, each with a plain-text and an HTML part from one description
 * (platform/notifier/email-template.ts). Links are built from PUBLIC_URL (configuration), never from the
 * request's Host header, so a forged Host cannot send a customer's link elsewhere.
 */

interface Person {
  /** The greeting names the customer by first name only: an email carries no other personal detail. */
  firstName: string;
  customerId: string;
}

const dear = (person: Person) => `Dear ${person.firstName},`;

const signOff = 'If you did not ask for this, you can ignore this email: nothing changes on your account.';

export function activationEmail(
  to: string,
  person: Person,
  publicUrl: string,
  token: string,
): OutboundMessage {
  const url = `${publicUrl}/register/activate?token=${encodeURIComponent(token)}`;
  return emailMessage(
    { to, kind: 'activation', customerId: person.customerId },
    {
      subject: 'Finish setting up your online account',
      greeting: dear(person),
      blocks: [
        paragraph(
          'Thank you for registering for your online account. To finish, open this link within 24 hours and ' +
            'choose a password:',
        ),
        action('Finish setting up your account', url),
        paragraph('We will then send a security code to your phone to check it is you.'),
      ],
      footer: signOff,
    },
  );
}

export function alreadyRegisteredEmail(to: string, person: Person, publicUrl: string): OutboundMessage {
  return emailMessage(
    { to, kind: 'already-registered', customerId: person.customerId },
    {
      subject: 'You already have an online account',
      greeting: dear(person),
      blocks: [
        paragraph(
          'Someone, probably you, tried to register for an online account with this email address. ' +
            'You already have an account, so there is no need to register again.',
        ),
        paragraph('Sign in at ', link(`${publicUrl}/login`)),
        paragraph(
          'If you have forgotten your password, choose "Forgotten your password?" on the sign-in page to reset it.',
        ),
      ],
      footer: signOff,
    },
  );
}

export function passwordResetEmail(
  to: string,
  person: Person,
  publicUrl: string,
  token: string,
): OutboundMessage {
  const url = `${publicUrl}/forgotten-password/new-password?token=${encodeURIComponent(token)}`;
  return emailMessage(
    { to, kind: 'password-reset', customerId: person.customerId },
    {
      subject: 'Reset your password',
      greeting: dear(person),
      blocks: [
        paragraph(
          'We received a request to reset the password of your online account. Open this link within 60 minutes ' +
            'to choose a new password:',
        ),
        action('Choose a new password', url),
        paragraph('We will then send a security code to your phone to check it is you.'),
      ],
      footer: signOff,
    },
  );
}

/** The unlock link: opens the sign-in page, which unlocks the account with it (POST, so a mail scanner's visit does not). */
export function unlockEmail(to: string, person: Person, publicUrl: string, token: string): OutboundMessage {
  const url = `${publicUrl}/login?unlock=${encodeURIComponent(token)}`;
  return emailMessage(
    { to, kind: 'unlock', customerId: person.customerId },
    {
      subject: 'Unlock your online account',
      greeting: dear(person),
      blocks: [
        paragraph(
          'Your online account was locked because the wrong password or security code was entered too many times. ' +
            'To unlock it now, open this link within 60 minutes:',
        ),
        action('Unlock your account', url),
        paragraph(
          'Then sign in with your email address and password. If you have forgotten your password, choose ' +
            '"Forgotten your password?" on the sign-in page instead.',
        ),
      ],
      footer: signOff,
    },
  );
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
  return emailMessage(
    { to, kind: `security-${event}`, customerId: person.customerId },
    {
      subject: words.subject,
      greeting: dear(person),
      blocks: [
        paragraph(`${words.what} on ${when} (UK time).`),
        paragraph('If this was you, there is nothing more to do.'),
        paragraph(
          'If it was not you, someone may know your password: reset it now with "Forgotten your password?" at ',
          link(`${publicUrl}/login`),
          ' and call us so we can check your account.',
        ),
      ],
    },
  );
}

/** The code that confirms a new email address (issue 26): sent to the NEW address. */
export function emailChangeCodeEmail(to: string, person: Person, securityCode: string): OutboundMessage {
  return emailMessage(
    { to, kind: 'email-change-code', customerId: person.customerId },
    {
      subject: 'Your security code to confirm your new email address',
      greeting: dear(person),
      blocks: [
        paragraph(
          'You asked to use this email address for your online account. To confirm it, enter this security code:',
        ),
        code(securityCode),
        paragraph('It expires in 5 minutes. We will never ask you for this code.'),
      ],
      footer: signOff,
    },
  );
}

/**
 * Sent instead of a code when the new email address is already another online account's (no account
 * enumeration: the customer who typed it sees the same answer; only the address's owner reads this).
 */
export function addressInUseEmail(to: string, publicUrl: string): OutboundMessage {
  return emailMessage(
    { to, kind: 'email-change-address-in-use', customerId: null },
    {
      subject: 'Someone tried to use your email address',
      greeting: 'Hello,',
      blocks: [
        paragraph(
          'Someone asked to use this email address for an online account with us. This address is already ' +
            'used by an online account, so nothing was changed and no code was sent.',
        ),
        paragraph(
          'If it was you, sign in with this address instead, or use a different address for the other account. ' +
            'You can sign in at ',
          link(`${publicUrl}/login`),
        ),
        paragraph('If it was not you, you do not need to do anything. Your account has not changed.'),
      ],
    },
  );
}

/** The code that confirms a new mobile number (issue 26): texted to the NEW number. */
export function mobileChangeCodeText(to: string, customerId: string, code: string): OutboundMessage {
  return {
    channel: 'sms',
    to,
    kind: 'mobile-change-code',
    customerId,
    text: `Your security code is ${code}. Enter it to confirm your new mobile number. It expires in 5 minutes. We will never ask you for this code.`,
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
  return emailMessage(
    { to, kind: 'security-new-device', customerId: person.customerId },
    {
      subject: 'A new sign-in to your account',
      greeting: dear(person),
      blocks: [
        paragraph('Your online account was signed in to from a browser we have not seen you use recently.'),
        facts([
          ['When', `${when} (UK time)`],
          ['Browser', browser],
          ['Network', signIn.network ?? 'not known'],
        ]),
        paragraph('If this was you, there is nothing more to do.'),
        paragraph(
          'Not you? Change your password and sign out of every other device straight away, on the ' +
            '"Sign-in and security" page: ',
          link(`${publicUrl}/profile/login-security`),
        ),
        paragraph(
          'If you cannot sign in, reset your password with "Forgotten your password?" at ',
          link(`${publicUrl}/login`),
          ' and call us, free on 0800 123 4567.',
        ),
      ],
    },
  );
}
