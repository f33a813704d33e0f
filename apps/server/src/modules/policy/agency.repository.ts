import type { AgencyRecordInput } from '@portal/contracts/integration/records';
import type { Queryable } from '../../platform/db';

/* The policy module's agencies, and each customer's own: the agency and customer_agency tables. */

export interface AgencyRecord {
  name: string;
  url: string | null;
  telephoneNumber: string;
  address: string;
  latitude: number;
  longitude: number;
  mutualDirectTelephonesOpen: string | null;
  mutualDirectTelephonesClose: string | null;
}

interface AgencyRow {
  name: string;
  url: string | null;
  telephone_number: string;
  address: string;
  latitude: number;
  longitude: number;
  telephones_open: string | null;
  telephones_close: string | null;
}

const agencyColumns =
  'a.name, a.url, a.telephone_number, a.address, a.latitude, a.longitude, a.telephones_open, a.telephones_close';

function toAgency(row: AgencyRow | undefined): AgencyRecord | null {
  if (!row) return null;
  return {
    name: row.name,
    url: row.url,
    telephoneNumber: row.telephone_number,
    address: row.address,
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    mutualDirectTelephonesOpen: row.telephones_open,
    mutualDirectTelephonesClose: row.telephones_close,
  };
}

export async function findCustomerAgency(q: Queryable, customerId: string): Promise<AgencyRecord | null> {
  const { rows } = await q.query<AgencyRow>(
    `SELECT ${agencyColumns} FROM customer_agency ca JOIN agency a ON a.agency_id = ca.agency_id
      WHERE ca.customer_id = $1`,
    [customerId],
  );
  return toAgency(rows[0]);
}

export async function findMutualDirect(q: Queryable): Promise<AgencyRecord | null> {
  const { rows } = await q.query<AgencyRow>(`SELECT ${agencyColumns} FROM agency a WHERE a.is_mutual_direct`);
  return toAgency(rows[0]);
}

/** The agency looking after one of the customer's policies: null when it has none or is not theirs. */
export async function findPolicyAgency(
  q: Queryable,
  customerId: string,
  policyNumber: string,
): Promise<AgencyRecord | null> {
  const { rows } = await q.query<AgencyRow>(
    `SELECT ${agencyColumns} FROM policy p JOIN agency a ON a.agency_id = p.agency_id
      WHERE p.customer_id = $1 AND p.policy_number = $2`,
    [customerId, policyNumber],
  );
  return toAgency(rows[0]);
}

/* The insurer's records (the integration API) ---------------------------------------------------- */

export async function upsertAgency(q: Queryable, agencyId: string, a: AgencyRecordInput): Promise<void> {
  await q.query(
    `INSERT INTO agency (agency_id, name, url, telephone_number, address, latitude, longitude, is_mutual_direct,
                         telephones_open, telephones_close)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (agency_id) DO UPDATE SET name = EXCLUDED.name, url = EXCLUDED.url,
       telephone_number = EXCLUDED.telephone_number, address = EXCLUDED.address, latitude = EXCLUDED.latitude,
       longitude = EXCLUDED.longitude, is_mutual_direct = EXCLUDED.is_mutual_direct,
       telephones_open = EXCLUDED.telephones_open, telephones_close = EXCLUDED.telephones_close`,
    [
      agencyId,
      a.name,
      a.url,
      a.telephoneNumber,
      a.address,
      a.latitude,
      a.longitude,
      a.isMutualDirect,
      a.telephonesOpen,
      a.telephonesClose,
    ],
  );
}

/** The agency's id and whether it is the direct line, or null when not held. */
export async function findAgency(
  q: Queryable,
  agencyId: string,
): Promise<{ agencyId: string; isMutualDirect: boolean } | null> {
  const { rows } = await q.query<{ agency_id: string; is_mutual_direct: boolean }>(
    'SELECT agency_id, is_mutual_direct FROM agency WHERE agency_id = $1',
    [agencyId],
  );
  return rows[0] ? { agencyId: rows[0].agency_id, isMutualDirect: rows[0].is_mutual_direct } : null;
}

/** The id of the agency that is the direct line, or null. */
export async function findMutualDirectId(q: Queryable): Promise<string | null> {
  const { rows } = await q.query<{ agency_id: string }>(
    'SELECT agency_id FROM agency WHERE is_mutual_direct',
  );
  return rows[0]?.agency_id ?? null;
}

/** Detaches the agency from its customers and policies (they fall back to the direct line), then removes it. */
export async function deleteAgency(q: Queryable, agencyId: string): Promise<boolean> {
  await q.query('DELETE FROM customer_agency WHERE agency_id = $1', [agencyId]);
  await q.query('UPDATE policy SET agency_id = NULL WHERE agency_id = $1', [agencyId]);
  const result = await q.query('DELETE FROM agency WHERE agency_id = $1', [agencyId]);
  return result.rowCount > 0;
}

export async function setCustomerAgency(
  q: Queryable,
  customerId: string,
  agencyId: string | null,
): Promise<void> {
  if (agencyId === null) {
    await q.query('DELETE FROM customer_agency WHERE customer_id = $1', [customerId]);
    return;
  }
  await q.query(
    `INSERT INTO customer_agency (customer_id, agency_id) VALUES ($1, $2)
     ON CONFLICT (customer_id) DO UPDATE SET agency_id = EXCLUDED.agency_id`,
    [customerId, agencyId],
  );
}

/** Which of the agencies are held. */
export async function findHeldAgencyIds(q: Queryable, agencyIds: readonly string[]): Promise<Set<string>> {
  if (agencyIds.length === 0) return new Set();
  const { rows } = await q.query<{ agency_id: string }>(
    'SELECT agency_id FROM agency WHERE agency_id = ANY($1::text[])',
    [[...new Set(agencyIds)]],
  );
  return new Set(rows.map((r) => r.agency_id));
}

/** setCustomerAgency for many customers (each at most once) in two statements. */
export async function setCustomerAgencies(
  q: Queryable,
  items: ReadonlyArray<{ customerId: string; agencyId: string | null }>,
): Promise<void> {
  const without = items.filter((i) => i.agencyId === null).map((i) => i.customerId);
  const withAgency = items.filter((i) => i.agencyId !== null);
  if (without.length > 0) {
    await q.query('DELETE FROM customer_agency WHERE customer_id = ANY($1::text[])', [without]);
  }
  if (withAgency.length > 0) {
    await q.query(
      `INSERT INTO customer_agency (customer_id, agency_id)
       SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (customer_id) DO UPDATE SET agency_id = EXCLUDED.agency_id`,
      [withAgency.map((i) => i.customerId), withAgency.map((i) => i.agencyId)],
    );
  }
}
