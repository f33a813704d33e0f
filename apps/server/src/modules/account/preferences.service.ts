import { recordCustomerEvent } from '../../platform/customer-events';
import type {
  CombinedPreferences,
  CorrespondencePreferences,
  MarketingPreferences,
  UpdatePreferencesBody,
  UserPreferences,
} from '@portal/contracts/account';
import { writeAudit } from '../../platform/audit';
import type { AccountContext } from './context';
import { notFound } from '../../platform/errors';
import { findCustomer, findCustomerAddress, type CustomerAddress } from './customer.repository';
import {
  lockPreferences,
  readPreferences,
  writePreferences,
  type MarketingChannel,
  type StoredPreferences,
} from './preferences.repository';

/** Who asked, for the audit trail. */
export interface Actor {
  customerId: string;
  onBehalfOf: string | null;
  sessionId: string | null;
  correlationId: string;
}

/** The audit trail's channel order (spec: "email, online, phone, post as comma list"). */
const auditChannelOrder: MarketingChannel[] = ['email', 'online', 'phone', 'post'];
/** The order of the consent record's channels, as the contract lists them. */
const eventChannelOrder: MarketingChannel[] = ['email', 'phone', 'post', 'online'];

function addressLinesOf(address: CustomerAddress): string[] {
  return [
    address.addressLineOne,
    address.addressLineTwo,
    address.addressLineThree,
    address.town,
    address.county,
    address.postCode,
  ]
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function marketingOf(stored: StoredPreferences): MarketingPreferences {
  return { ...stored.marketing };
}

/** Stored lines when the customer gave a correspondence address, else the address on record. */
function correspondenceOf(stored: StoredPreferences, address: CustomerAddress): CorrespondencePreferences {
  return {
    paperless: stored.paperless,
    addressLines: stored.addressLines.length > 0 ? stored.addressLines : addressLinesOf(address),
  };
}

export function createPreferencesService(ctx: AccountContext) {
  const { db, clock } = ctx;

  async function load(customerId: string) {
    const address = await findCustomerAddress(db, customerId);
    if (!address) throw notFound('Customer not found');
    return { address, stored: await readPreferences(db, customerId) };
  }

  return {
    async user(customerId: string): Promise<UserPreferences> {
      const customer = await findCustomer(db, customerId);
      if (!customer) throw notFound('Customer not found');
      const { address, stored } = await load(customerId);
      return {
        email: customer.email,
        marketingPreferences: marketingOf(stored),
        correspondencePreferences: correspondenceOf(stored, address),
        registrationJourney: stored.marketing.online === null,
      };
    },

    async marketing(customerId: string): Promise<MarketingPreferences> {
      return marketingOf((await load(customerId)).stored);
    },

    async correspondence(customerId: string): Promise<CorrespondencePreferences> {
      const { address, stored } = await load(customerId);
      return correspondenceOf(stored, address);
    },

    /** Applies the change and writes one audit row per section changed, all in one transaction. */
    async update(actor: Actor, body: UpdatePreferencesBody): Promise<CombinedPreferences> {
      const address = await findCustomerAddress(db, actor.customerId);
      if (!address) throw notFound('Customer not found');
      const now = clock.now();
      const audit = {
        source: 'server' as const,
        customerId: actor.customerId,
        onBehalfOf: actor.onBehalfOf,
        sessionId: actor.sessionId,
        correlationId: actor.correlationId,
        isSuccess: true,
        occurredAt: now,
      };
      const stored = await db.transaction(async (tx) => {
        const before = await lockPreferences(tx, actor.customerId, now);
        const after = await writePreferences(
          tx,
          actor.customerId,
          {
            ...(body.marketingPreferences ? { marketing: body.marketingPreferences } : {}),
            ...(body.correspondencePreferences
              ? {
                  paperless: body.correspondencePreferences.paperless,
                  ...(body.correspondencePreferences.addressLines !== undefined
                    ? { addressLines: body.correspondencePreferences.addressLines }
                    : {}),
                }
              : {}),
          },
          now,
        );
        if (body.marketingPreferences) {
          await writeAudit(tx, {
            ...audit,
            eventId: 'preferences.marketing.updated',
            details: {
              marketingChannels: auditChannelOrder.filter((c) => after.marketing[c] === true).join(','),
              marketingConsent: after.marketing.online,
              changedChannels: auditChannelOrder.filter((c) => before.marketing[c] !== after.marketing[c]),
            },
          });
          // The consent record the insurer keeps. Never having answered the online channel is what puts
          // the customer on the first-sign-in step (`registrationJourney` above), so it says which journey.
          await recordCustomerEvent(ctx, tx, {
            type: 'customer.marketing.updated',
            customerId: actor.customerId,
            occurredAt: now,
            data: {
              marketing: marketingOf(after),
              changed: eventChannelOrder.filter((c) => before.marketing[c] !== after.marketing[c]),
              journey: before.marketing.online === null ? 'registration' : 'preferences',
              channel: 'portal',
            },
          });
        }
        if (body.correspondencePreferences) {
          await writeAudit(tx, {
            ...audit,
            eventId: 'preferences.correspondence.updated',
            details: {
              correspondencePreference: after.paperless ? 'paperless' : 'paper',
              previousCorrespondencePreference: before.paperless ? 'paperless' : 'paper',
              addressLinesReplaced: body.correspondencePreferences.addressLines !== undefined,
            },
          });
          await recordCustomerEvent(ctx, tx, {
            type: 'customer.correspondence.updated',
            customerId: actor.customerId,
            occurredAt: now,
            data: { paperless: after.paperless, previous: before.paperless },
          });
        }
        return after;
      });
      return {
        marketingPreferences: marketingOf(stored),
        correspondencePreferences: correspondenceOf(stored, address),
      };
    },
  };
}

export type PreferencesService = ReturnType<typeof createPreferencesService>;
