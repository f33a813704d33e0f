import {
  getUserPreferencesCall,
  updatePreferencesCall,
  type UserPreferences,
} from '@portal/contracts/account';
import { postAuditEventCall } from '@portal/contracts/eventlog';
import { completeRegistrationCall } from '@portal/contracts/registration';
import { fakeApi, fakeCall } from './fake-api';

/*
 * The account service's preferences of one customer on the fake API, with the state a change leaves:
 * the stored preferences answer the GET, and a PATCH merges into them and answers the new combined
 * preferences. Also the registration completion and the event log the account page calls. Another
 * customer's path is 404 and a call without a token 401, as fakeCall answers for every customer call.
 */

export const CUSTOMER_ID = 'C1000002';

export function preferences(
  overrides: Partial<UserPreferences['marketingPreferences']> = {},
): UserPreferences {
  return {
    email: 'david.okafor@example.co.uk',
    marketingPreferences: { email: null, phone: null, post: null, online: null, ...overrides },
    correspondencePreferences: { paperless: false, addressLines: ['Home Farm', 'Much Marcle', 'HR8 2NG'] },
    noticePreferences: { email: false, emailRequired: false, text: false, textTo: null },
    registrationJourney: overrides.online === undefined || overrides.online === null,
  };
}

export function preferencesScenario(initial: UserPreferences = preferences()): void {
  let stored = initial;
  fakeApi.use(
    fakeCall(postAuditEventCall, () => ({ status: 202, body: { accepted: true } })),
    fakeCall(completeRegistrationCall, () => ({ status: 200, body: { status: 'COMPLETED' } })),
    fakeCall(getUserPreferencesCall, () => ({ status: 200, body: stored })),
    fakeCall(updatePreferencesCall, ({ body }) => {
      stored = {
        ...stored,
        marketingPreferences: { ...stored.marketingPreferences, ...body.marketingPreferences },
        correspondencePreferences: {
          paperless: body.correspondencePreferences?.paperless ?? stored.correspondencePreferences.paperless,
          addressLines:
            body.correspondencePreferences?.addressLines ?? stored.correspondencePreferences.addressLines,
        },
      };
      const paperless = stored.correspondencePreferences.paperless;
      stored.noticePreferences = {
        ...stored.noticePreferences,
        ...body.noticePreferences,
        emailRequired: paperless,
        ...(paperless ? { email: true } : {}),
      };
      const { marketingPreferences, correspondencePreferences, noticePreferences } = stored;
      return { status: 200, body: { marketingPreferences, correspondencePreferences, noticePreferences } };
    }),
  );
}
