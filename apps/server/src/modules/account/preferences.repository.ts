import type { Queryable } from '../../platform/db';

export type MarketingChannel = 'email' | 'phone' | 'post' | 'online';

export interface StoredPreferences {
  marketing: Record<MarketingChannel, boolean | null>;
  paperless: boolean;
  /** [] means the customer's own address on record. */
  addressLines: string[];
  /**
   * How they are told of new documents and messages (issue 40): `email` as chosen while on paper (a
   * paperless customer is emailed whatever it says), `text` to the mobile on record.
   */
  notices: { email: boolean; text: boolean };
}

interface PreferencesRow {
  marketing_email: boolean | null;
  marketing_phone: boolean | null;
  marketing_post: boolean | null;
  marketing_online: boolean | null;
  paperless: boolean;
  correspondence_address_lines: unknown;
  notice_email: boolean;
  notice_text: boolean;
}

/** Channel -> column. The only way a column name reaches SQL text. */
const marketingColumns: Record<MarketingChannel, string> = {
  email: 'marketing_email',
  phone: 'marketing_phone',
  post: 'marketing_post',
  online: 'marketing_online',
};

const columns = `marketing_email, marketing_phone, marketing_post, marketing_online, paperless,
  correspondence_address_lines, notice_email, notice_text`;

function toStored(row: PreferencesRow): StoredPreferences {
  const lines = row.correspondence_address_lines;
  return {
    marketing: {
      email: row.marketing_email,
      phone: row.marketing_phone,
      post: row.marketing_post,
      online: row.marketing_online,
    },
    paperless: row.paperless,
    addressLines: Array.isArray(lines) ? lines.map(String) : [],
    notices: { email: row.notice_email, text: row.notice_text },
  };
}

const defaults: StoredPreferences = {
  marketing: { email: null, phone: null, post: null, online: null },
  paperless: false,
  addressLines: [],
  notices: { email: false, text: false },
};

/** The stored preferences; defaults (nothing chosen, paper) when the customer has no row yet. */
export async function readPreferences(q: Queryable, customerId: string): Promise<StoredPreferences> {
  const { rows } = await q.query<PreferencesRow>(
    `SELECT ${columns} FROM customer_preferences WHERE customer_id = $1`,
    [customerId],
  );
  return rows[0] ? toStored(rows[0]) : structuredClone(defaults);
}

/** Reads the row for update inside a transaction, creating it with defaults first when missing. */
export async function lockPreferences(
  q: Queryable,
  customerId: string,
  now: Date,
): Promise<StoredPreferences> {
  await q.query(
    `INSERT INTO customer_preferences (customer_id, updated_at) VALUES ($1, $2)
     ON CONFLICT (customer_id) DO NOTHING`,
    [customerId, now],
  );
  const { rows } = await q.query<PreferencesRow>(
    `SELECT ${columns} FROM customer_preferences WHERE customer_id = $1 FOR UPDATE`,
    [customerId],
  );
  return toStored(rows[0]!);
}

export interface PreferencesChange {
  marketing?: Partial<Record<MarketingChannel, boolean>>;
  paperless?: boolean;
  addressLines?: string[];
  notices?: Partial<{ email: boolean; text: boolean }>;
}

export async function writePreferences(
  q: Queryable,
  customerId: string,
  change: PreferencesChange,
  now: Date,
): Promise<StoredPreferences> {
  const sets: string[] = [];
  const params: unknown[] = [customerId, now];
  for (const [channel, value] of Object.entries(change.marketing ?? {}) as Array<
    [MarketingChannel, boolean]
  >) {
    params.push(value);
    sets.push(`${marketingColumns[channel]} = $${params.length}`);
  }
  if (change.paperless !== undefined) {
    params.push(change.paperless);
    sets.push(`paperless = $${params.length}`);
  }
  if (change.addressLines !== undefined) {
    params.push(JSON.stringify(change.addressLines));
    sets.push(`correspondence_address_lines = $${params.length}::jsonb`);
  }
  if (change.notices?.email !== undefined) {
    params.push(change.notices.email);
    sets.push(`notice_email = $${params.length}`);
  }
  if (change.notices?.text !== undefined) {
    params.push(change.notices.text);
    sets.push(`notice_text = $${params.length}`);
  }
  const { rows } = await q.query<PreferencesRow>(
    `UPDATE customer_preferences SET ${[...sets, 'updated_at = $2'].join(', ')}
     WHERE customer_id = $1 RETURNING ${columns}`,
    params,
  );
  return toStored(rows[0]!);
}

/**
 * First-time preferences of a demo customer; never overwrites what the customer has chosen since.
 * Customers who already went through the first-sign-in step have tailored online marketing answered
 * (true) and paperless on, as that step saves; the others have online unasked so the step shows at
 * their first sign-in. Email, phone and post start unset for everyone.
 */
export async function insertDemoPreferences(
  q: Queryable,
  customerId: string,
  marketingChosen: boolean,
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO customer_preferences (customer_id, marketing_email, marketing_phone, marketing_post,
       marketing_online, paperless, correspondence_address_lines, updated_at)
     VALUES ($1, NULL, NULL, NULL, $2, $3, '[]'::jsonb, $4)
     ON CONFLICT (customer_id) DO NOTHING`,
    [customerId, marketingChosen ? true : null, marketingChosen, now],
  );
}
