import type { StaffRole } from '@portal/contracts/call';

/*
 * Every word of the staff console (issue 41, decision 038), in one place: the console is the insurer's own
 * tool, not the customers' site, so its texts are not in the content service; they follow its conventions
 * (plain English, UK spelling, short sentences, `{name}` placeholders filled by fillPlaceholders). The
 * account activity's sentences are the customers' own (activity-wording.ts), so the agent reads what the
 * customer reads.
 */

export const texts = {
  siteName: 'Meridian Mutual',
  consoleName: 'Staff console',
  /** "{page} – Staff console", then the site's name (useDocumentTitle). */
  titleSuffix: ' – Staff console',
  skipToContent: 'Skip to main content',
  /** Read after the console's name in the header's home link. */
  homeLink: 'home',
  signedInAs: 'Signed in as',
  roles: {
    agent: 'Agent',
    'senior-agent': 'Senior agent',
    auditor: 'Auditor',
    editor: 'Editor',
    publisher: 'Publisher',
    operator: 'Operator',
  } satisfies Record<StaffRole, string>,
  rolesLabel: 'Role',
  signOut: 'Sign out',
  signingOut: 'Signing you out',
  signOutFailed: 'We could not sign you out just now. Please try again.',
  loading: 'Loading the staff console…',
  leavingForSignIn: 'Taking you to sign in…',
  startFailed: {
    title: 'The staff console is not available',
    body: 'We could not check who is signed in. Please try again in a minute.',
    retry: 'Try again',
  },

  idle: {
    title: 'You will be signed out soon',
    body: 'You have not done anything in the console for a while. To protect customers’ details, we will sign you out in',
    stay: 'Stay signed in',
    signOut: 'Sign out now',
    endTitle: 'Your session ends soon',
    endBody:
      'A console session lasts 8 hours at most. Finish what you are doing: you will need to sign in again in',
    endContinue: 'Continue',
  },

  signedOut: {
    title: 'You have signed out',
    body: 'You have signed out of the staff console. Close this window if you have finished.',
    signIn: 'Sign in again',
  },
  notFound: {
    title: 'Page not found',
    body: 'There is no console page at this address.',
    back: 'Find a customer',
  },
  routeError: {
    title: 'Sorry, there is a problem with the console',
    body: 'This page could not be shown. Reload the page to try again.',
    reload: 'Reload the page',
  },
  notForRole: {
    title: 'You cannot see this page',
    body: 'Your role does not allow this. Ask your team leader if you need it.',
    back: 'Find a customer',
  },

  find: {
    title: 'Find a customer',
    intro: 'Find the customer you are helping. What you search for and why is recorded.',
    by: {
      legend: 'How do you want to find them?',
      options: {
        customerId: 'Customer id',
        email: 'Email address',
        policyNumber: 'Policy number',
        nameAndBirth: 'Surname, date of birth and postcode',
      },
    },
    customerId: { label: 'Customer id', hint: 'C and 7 digits, for example C1000001' },
    email: { label: 'Email address' },
    policyNumber: { label: 'Policy number', hint: 'For example, 102X4567891' },
    surname: { label: 'Surname' },
    dateOfBirth: { label: 'Date of birth', hint: 'For example, 27/03/1985' },
    postcode: { label: 'Postcode' },
    reason: {
      label: 'Reason',
      hint: 'A ticket or call reference. It is recorded with every record you open.',
    },
    submit: 'Search',
    submitting: 'Searching',
    resultsTitle: { one: '1 customer found', other: '{count} customers found' },
    noResults: {
      title: 'No customer found',
      body: 'Check the details with the caller. A search by surname needs the date of birth and postcode exactly as we hold them.',
    },
    postcodeStart: 'Postcode starts',
    onlineAccount: 'Online account',
    onlineAccountStates: {
      active: 'Registered',
      pending: 'Registered, not activated',
      none: 'No online account',
    },
    open: 'Open record',
    auditTrail: 'Audit trail',
    /** Read after the link's text: "Open record for Margaret Thompson". */
    forCustomer: 'for {name}',
  },

  reasonStep: {
    title: 'Why are you opening this record?',
    auditTitle: 'Why are you reading this audit trail?',
    intro: 'Give the ticket or call reference. It is recorded with the record you open.',
    submit: 'Continue',
  },

  record: {
    caption: 'Customer {customerId}',
    opening: 'Opening the record…',
    failed: 'The record could not be opened',
    back: 'Back to Find a customer',
    reasonShown: 'Opened for: {reason}',
    identity: {
      title: 'Identity questions',
      dateOfBirth: 'Date of birth',
      postcode: 'Postcode',
      email: 'Email address',
      mobile: 'Mobile',
      landline: 'Landline',
      none: 'None held',
    },
    glance: {
      title: 'At a glance',
      registration: 'Online account',
      registrationStates: {
        none: 'Not registered',
        pending: 'Registered, activation link not used yet',
        active: 'Active',
        closed: 'Closed',
      },
      activationSent: 'Activation link last sent {when}',
      signIn: 'Sign-in',
      locked: 'Locked',
      lockedUntil: 'Locked until {when}',
      notLocked: 'Not locked',
      lastSignIn: 'Last sign-in',
      never: 'Never',
      lastSignInOn: '{when}, {device}',
      factors: 'Second factors',
      noFactors: 'None',
      factorKinds: {
        text: 'Text message',
        call: 'Phone call',
        'authenticator-app': 'Authenticator app',
        passkey: 'Passkeys',
        'backup-codes': 'Backup codes',
      },
      factorTo: 'to {destination}',
      factorCount: '({count})',
      factorAdded: 'added {when}',
      sessions: 'Signed in now',
      noSessions: 'Not signed in anywhere',
      sessionItem: '{browser}, signed in {when}',
      unknownBrowser: 'Unknown browser',
      documents: 'Documents',
      paperless: 'Paperless, by email',
      paper: 'Paper, by post',
      marketing: 'Marketing',
      marketingChannels: { email: 'Email', phone: 'Phone', post: 'Post', online: 'Online' },
      marketingYes: 'yes',
      marketingNo: 'no',
      marketingNotAsked: 'not asked',
    },
    policies: {
      title: 'Policies',
      none: 'No policies held.',
      number: 'Policy number',
      product: 'Product',
      status: 'Status',
      renewal: 'Renewal date',
      /** The policy system's statuses in words; one not listed shows as sent. */
      statuses: {
        Active: 'Active',
        Upcoming: 'Starts soon',
        Expired: 'Expired',
        Renewing: 'Renewing',
        RenewalCustomerReady: 'Renewal ready for the customer to view',
      } as Readonly<Record<string, string>>,
    },
    activity: {
      title: 'Account activity',
      intro:
        'The last 20 entries, newest first, as the customer reads them on their Account activity page. UK time.',
      empty: 'There is no activity yet.',
    },
  },

  actions: {
    title: 'Help this customer',
    none: 'There is nothing here to help with just now.',
    reason: {
      label: 'Reason',
      hint: 'A ticket or call reference. It is recorded, and the customer sees what we did.',
    },
    identityChecked: 'I have checked who I am speaking to',
    identityCheckedHint: 'Ask the identity questions of the call script first.',
    cancel: 'Cancel',
    working: 'Please wait',
    doneTitle: 'Done',
    failedTitle: 'There is a problem',
    reference: 'Reference: {correlationId}',
    resendActivation: {
      button: 'Resend activation link',
      title: 'Resend the activation link',
      body: 'We will email a new activation link to {email}. Earlier links stop working.',
      confirm: 'Send the link',
      done: 'We have sent a new activation link to the customer.',
      conflict:
        'The link was not sent: the customer has already activated their account, or has not registered.',
    },
    unlock: {
      button: 'Unlock sign-in',
      title: 'Unlock their sign-in',
      body: 'The customer can sign in again straight away. They will see that our contact centre unlocked it.',
      confirm: 'Unlock sign-in',
      done: 'The customer’s sign-in is unlocked.',
      conflict: 'Their sign-in is not locked any more, so nothing was changed.',
    },
    endSessions: {
      button: 'Sign out everywhere',
      title: 'Sign the customer out everywhere',
      body: 'Every browser and app where they are signed in will be signed out. They can sign in again.',
      confirm: 'Sign them out',
      done: 'The customer is signed out everywhere.',
      conflict: 'They were not signed in anywhere, so nothing was changed.',
    },
    removeFactors: {
      button: 'Remove second factors',
      title: 'Remove second factors',
      body: 'Remove what the customer can no longer use, for example an authenticator app on a lost phone. We will email them to say so.',
      kindsLegend: 'What do you want to remove?',
      kindsHint: 'Select all that apply.',
      kinds: {
        'authenticator-app': 'Authenticator app',
        passkeys: 'Passkeys',
        'backup-codes': 'Backup codes',
      },
      confirm: 'Remove',
      done: 'We have removed what you chose and emailed the customer.',
      conflict:
        'Nothing was removed: the customer no longer has what you chose. The record may be out of date.',
    },
    changeEmail: {
      button: 'Change email address',
      title: 'Change their email address',
      body: 'We will email both the old and the new address to say it changed.',
      label: 'New email address',
      confirm: 'Change email address',
      done: 'We have changed the customer’s email address and emailed both addresses.',
      conflict:
        'The email address was not changed: another online account uses it, or it is the one we hold.',
    },
  },

  audit: {
    title: 'Audit trail',
    titleFor: 'Audit trail of {name}',
    loading: 'Loading the audit trail…',
    intro: 'Newest first, UK time. Read only.',
    caption: 'What was recorded about this customer',
    when: 'When',
    event: 'Event',
    outcome: 'Outcome',
    onBehalfOf: 'Who acted',
    details: 'Details',
    success: 'Succeeded',
    failure: 'Failed',
    failureReason: 'Failed: {reason}',
    noOutcome: '—',
    customer: 'The customer',
    noDetails: 'None',
    empty: 'Nothing has been recorded about this customer.',
    showMore: 'Show more',
    moreShown: '{count} more entries shown',
    end: 'There are no older entries.',
    scrollLabel: 'Audit trail entries (scrolls sideways on a small screen)',
  },

  sharedView: {
    title: 'See what the customer sees',
    body: 'Ask the customer to open Sign-in and security in their online account and choose Get a code. With it, you can see their account as they do, read only, for up to 30 minutes. They can stop you at any time.',
    bodyNoCode:
      'You can see the customer’s account as they do, read only, for up to 30 minutes. Check who you are speaking to first. They can stop you at any time.',
    codeLabel: 'Code the customer reads out',
    codeHint: '6 digits. It works once, for 10 minutes.',
    submit: 'Get the link',
    readyTitle: 'The view is ready',
    open: 'Open {name}’s account, read only (opens in a new tab)',
    linkEnds: 'The link works once, until {time}. The view ends by {ends} at the latest.',
    wrongCode: 'That code is not right, or it has expired or been used. Ask the customer to get a new code.',
    noAccount: 'This customer has no online account in use, so there is nothing to view.',
  },

  validation: {
    code: {
      empty: 'Enter the 6-digit code the customer reads out',
      invalid: 'Enter the code as 6 digits, like 482913',
    },
    by: 'Choose how to find the customer',
    customerId: { empty: 'Enter the customer id', invalid: 'Enter a customer id like C1000001' },
    email: { empty: 'Enter the email address', invalid: 'Enter an email address like name@example.com' },
    policyNumber: {
      empty: 'Enter the policy number',
      invalid: 'Enter a policy number like 102X4567891',
    },
    surname: { empty: 'Enter the surname', tooLong: 'Enter a surname of 100 characters or fewer' },
    dateOfBirth: {
      empty: 'Enter the date of birth',
      invalid: 'Enter a real date of birth as DD/MM/YYYY',
      future: 'The date of birth must be in the past',
    },
    postcode: { empty: 'Enter the postcode', invalid: 'Enter a real postcode, like HR8 2AB' },
    reason: {
      empty: 'Enter the reason: a ticket or call reference',
      tooShort: 'Enter a reason of at least 3 characters',
      tooLong: 'Enter a reason of 200 characters or fewer',
    },
    kinds: 'Choose what to remove',
    identityChecked: 'Confirm you have checked who you are speaking to',
    newEmail: {
      empty: 'Enter the new email address',
      invalid: 'Enter an email address like name@example.com',
    },
  },

  errors: {
    badRequest: 'The service did not accept this: {message}',
    forbidden:
      'Your role does not allow this, or the page is out of date. Reload the page and try again; if it happens again, ask your team leader.',
    notFound: 'We could not find this customer. Their record may have been closed or erased. Search again.',
    tooManySearches: 'You have searched a lot in a short time. Wait {minutes} before searching again.',
    tooMany: 'You have done this a lot in a short time. Wait {minutes} and try again.',
    unavailable: 'The service is not answering just now, so nothing was changed. Try again in a minute.',
    unexpected: 'Something went wrong and we do not know if it worked. Open the record again to check.',
    network: 'The console could not reach the service. Check your connection and try again.',
    minute: '1 minute',
    minutes: '{count} minutes',
  },
} as const;
