/** Channel order of the audit event's marketingChannels (spec: "email, online, phone, post as comma list"). */
const channelOrder = ['email', 'online', 'phone', 'post'] as const;

export interface MarketingChoice {
  email?: boolean | null;
  online?: boolean | null;
  phone?: boolean | null;
  post?: boolean | null;
}

/** The channels agreed to, as the audit event's comma list ("" when none). */
export function marketingChannelsOf(choice: MarketingChoice): string {
  return channelOrder.filter((channel) => choice[channel] === true).join(',');
}

/** The audit event's correspondencePreference. */
export function correspondencePreferenceOf(paperless: boolean): 'paperless' | 'paper' {
  return paperless ? 'paperless' : 'paper';
}
