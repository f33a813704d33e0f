import { writeAuditRows, type AuditRow } from '../../platform/audit';
import type { PlatformContext } from '../../platform/module';

/**
 * The account activity of the demo customer Joan Whitfield (C1000015): her registration (400 days ago,
 * as every demo account's, db/demo/records.ts) and a few months of what a customer does, as the audit trail records it (the same event ids and details the real calls write), dated back
 * from the day it is seeded, so "Your account activity" has a history to show and page through. Among it
 * are rows the list leaves out (the OpenID step of each sign-in, the SPA's own events), as in real life.
 * Seeded once per database: the trail is append-only, so a later seed cannot move it.
 */
const ACTIVITY_DEMO_CUSTOMER = 'C1000015';

const MASKED_MOBILE = '+44 XXXX XXX432';

type Step = [daysAgo: number, time: string, rows: Array<Omit<AuditRow, 'source' | 'customerId'>>];

const signIn = (send = 1): Array<Omit<AuditRow, 'source' | 'customerId'>> => [
  {
    eventId: 'identity.mfa.sent',
    isSuccess: true,
    details: { mfaSendMethod: 'sms', phoneNumber: MASKED_MOBILE, codeLength: 6, send, purpose: 'signin' },
  },
  {
    eventId: 'identity.signin',
    isSuccess: true,
    details: { mfaSendMethod: 'sms', mfaUsedForLogin: true, purpose: 'signin' },
  },
  {
    eventId: 'oidc.authorize',
    isSuccess: true,
    onBehalfOf: ACTIVITY_DEMO_CUSTOMER,
    details: { amr: ['pwd', 'sms', 'mfa'] },
  },
];

const wrongPassword: Omit<AuditRow, 'source' | 'customerId'> = {
  eventId: 'identity.signin',
  isSuccess: false,
  failureReason: 'WRONG_PASSWORD',
};

const marketing = (channels: string[]): Omit<AuditRow, 'source' | 'customerId'> => ({
  eventId: 'preferences.marketing.updated',
  isSuccess: true,
  onBehalfOf: ACTIVITY_DEMO_CUSTOMER,
  details: {
    marketingChannels: channels.join(','),
    marketingConsent: channels.includes('online'),
    changedChannels: channels,
  },
});

/** Oldest first; times are UTC. */
const history: Step[] = [
  [400, '10:02', [{ eventId: 'identity.activation', isSuccess: true }]],
  [400, '10:04', signIn()],
  [400, '10:05', [marketing(['email', 'post'])]],
  [
    121,
    '10:07',
    [
      {
        eventId: 'preferences.correspondence.updated',
        isSuccess: true,
        onBehalfOf: ACTIVITY_DEMO_CUSTOMER,
        details: {
          correspondencePreference: 'paperless',
          previousCorrespondencePreference: 'paper',
          addressLinesReplaced: false,
        },
      },
    ],
  ],
  [104, '19:31', signIn()],
  [89, '08:47', [wrongPassword]],
  [89, '08:48', signIn()],
  [
    89,
    '08:55',
    [
      {
        eventId: 'contact.sent',
        isSuccess: true,
        onBehalfOf: ACTIVITY_DEMO_CUSTOMER,
        details: { messageId: 'demo', productType: 'PHL', messageType: 'ChangeAddress' },
      },
    ],
  ],
  [
    89,
    '08:56',
    [
      {
        eventId: 'Contact us message sent',
        isSuccess: true,
        onBehalfOf: ACTIVITY_DEMO_CUSTOMER,
        details: { authenticationStatus: 'Authenticated', tokenVerified: true },
      },
    ],
  ],
  [67, '14:12', signIn()],
  [
    67,
    '14:15',
    [
      {
        eventId: 'identity.mfa.sent',
        isSuccess: true,
        details: {
          mfaSendMethod: 'sms',
          phoneNumber: MASKED_MOBILE,
          codeLength: 6,
          send: 1,
          purpose: 'stepup',
        },
      },
    ],
  ],
  [
    67,
    '14:17',
    [
      { eventId: 'identity.stepup.verified', isSuccess: true, details: { mfaSendMethod: 'sms' } },
      { eventId: 'identity.password.set', isSuccess: true, details: { purpose: 'change' } },
      {
        eventId: 'profile.password.changed',
        isSuccess: true,
        onBehalfOf: ACTIVITY_DEMO_CUSTOMER,
        details: { otherSessionsEnded: 0 },
      },
    ],
  ],
  [52, '11:20', signIn()],
  [38, '09:41', signIn(2)],
  [38, '09:44', [marketing([])]],
  [24, '16:03', [wrongPassword]],
  [24, '16:04', [wrongPassword]],
  [24, '16:06', signIn()],
  [
    24,
    '16:20',
    [
      {
        eventId: 'oidc.session.ended',
        isSuccess: true,
        onBehalfOf: ACTIVITY_DEMO_CUSTOMER,
        details: { via: 'sessions/me' },
      },
    ],
  ],
  [9, '12:30', signIn()],
  [3, '18:45', signIn()],
];

/** The rows of the demo history, dated back from `now`. */
function demoActivityRows(now: Date): AuditRow[] {
  return history.flatMap(([daysAgo, time, rows], step) => {
    const day = new Date(now.getTime() - daysAgo * 86_400_000);
    const [h, m] = time.split(':').map(Number);
    const at = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), h, m);
    const sessionId = `demo-activity-${step}`;
    return rows.map((row, i) => ({
      source: row.eventId.includes(' ') ? ('client' as const) : ('server' as const),
      customerId: ACTIVITY_DEMO_CUSTOMER,
      sessionId,
      ...row,
      occurredAt: new Date(at + i * 7_000),
    }));
  });
}

/** Seeds the history once (its rows carry session ids of their own, which say it has been). */
export async function seedDemoActivity(ctx: PlatformContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const held = await tx.query(
      `SELECT 1 FROM audit_event WHERE customer_id = $1 AND session_id LIKE 'demo-activity-%' LIMIT 1`,
      [ACTIVITY_DEMO_CUSTOMER],
    );
    if (held.rows.length > 0) return;
    await writeAuditRows(tx, demoActivityRows(ctx.clock.now()));
  });
}
