import type { UpdatePreferencesBody } from '@portal/contracts/account';

export type MarketingChannel = 'email' | 'phone' | 'post';

export interface FirstSignInChoice {
  /** The tailored online marketing answer: yes (true) or no (false). */
  online: boolean;
  /** The channels ticked, when the channel question was asked (null when it was not offered). */
  channels: ReadonlySet<MarketingChannel> | null;
}

/**
 * The PATCH body of the first-sign-in step (spec: "saving sets paperless true and clears address lines"):
 * the online answer, the three channels when they were asked (unticked means no), documents online, and no
 * separate correspondence address.
 */
export function firstSignInBody({ online, channels }: FirstSignInChoice): UpdatePreferencesBody {
  return {
    marketingPreferences: {
      online,
      ...(channels
        ? { email: channels.has('email'), phone: channels.has('phone'), post: channels.has('post') }
        : {}),
    },
    correspondencePreferences: { paperless: true, addressLines: [] },
  };
}
