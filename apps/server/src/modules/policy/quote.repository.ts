import type { QuoteRecordInput } from '@portal/contracts/integration/records';
import type { Queryable } from '../../platform/db';

/* The policy module's quotes: the quote table. Their documents are the document module's. */

export interface QuoteRecord {
  quoteNumber: string;
  productType: string;
  productName: string;
  startDate: string;
  premium: number;
  onlineQuoteAndBuy: boolean;
  /** The policy system's own link; null: the portal's configured link. */
  quoteAndBuyUrl: string | null;
}

/** The customer's quotes, soonest cover first. */
export async function listCustomerQuotes(q: Queryable, customerId: string): Promise<QuoteRecord[]> {
  const { rows } = await q.query<QuoteRow>(
    `SELECT ${quoteColumns} FROM quote q WHERE q.customer_id = $1 ORDER BY q.start_date, q.quote_number`,
    [customerId],
  );
  return rows.map(toQuote);
}

/** One of the customer's quotes, or null (not held, or not theirs). */
export async function findCustomerQuote(
  q: Queryable,
  customerId: string,
  quoteNumber: string,
): Promise<QuoteRecord | null> {
  const { rows } = await q.query<QuoteRow>(
    `SELECT ${quoteColumns} FROM quote q WHERE q.customer_id = $1 AND q.quote_number = $2`,
    [customerId, quoteNumber],
  );
  return rows[0] ? toQuote(rows[0]) : null;
}

interface QuoteRow {
  quote_number: string;
  product_type: string;
  product_name: string;
  start_date: string;
  premium: string;
  online_quote_and_buy: boolean;
  quote_and_buy_url: string | null;
}

const quoteColumns = `q.quote_number, q.product_type, q.product_name, q.start_date::text AS start_date,
            q.premium::text AS premium, q.online_quote_and_buy, q.quote_and_buy_url`;

function toQuote(r: QuoteRow): QuoteRecord {
  return {
    quoteNumber: r.quote_number,
    productType: r.product_type,
    productName: r.product_name,
    startDate: r.start_date,
    premium: Number(r.premium),
    onlineQuoteAndBuy: r.online_quote_and_buy,
    quoteAndBuyUrl: r.quote_and_buy_url,
  };
}

/** The customer a quote is held for, or null. */
export async function findQuoteHolder(q: Queryable, quoteNumber: string): Promise<string | null> {
  const { rows } = await q.query<{ customer_id: string }>(
    'SELECT customer_id FROM quote WHERE quote_number = $1',
    [quoteNumber],
  );
  return rows[0]?.customer_id ?? null;
}

export async function upsertQuote(q: Queryable, quoteNumber: string, quote: QuoteRecordInput): Promise<void> {
  await q.query(
    `INSERT INTO quote (quote_number, customer_id, product_type, product_name, start_date, premium,
                        online_quote_and_buy, quote_and_buy_url)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (quote_number) DO UPDATE SET customer_id = EXCLUDED.customer_id,
       product_type = EXCLUDED.product_type, product_name = EXCLUDED.product_name,
       start_date = EXCLUDED.start_date, premium = EXCLUDED.premium,
       online_quote_and_buy = EXCLUDED.online_quote_and_buy, quote_and_buy_url = EXCLUDED.quote_and_buy_url`,
    [
      quoteNumber,
      quote.customerId,
      quote.productType,
      quote.productName,
      quote.startDate,
      quote.premium,
      quote.onlineQuoteAndBuy,
      quote.quoteAndBuyUrl ?? null,
    ],
  );
}

/** Removes a quote (its documents cascade); the customer it was held for, or null. */
export async function deleteQuote(q: Queryable, quoteNumber: string): Promise<string | null> {
  const { rows } = await q.query<{ customer_id: string }>(
    'DELETE FROM quote WHERE quote_number = $1 RETURNING customer_id',
    [quoteNumber],
  );
  return rows[0]?.customer_id ?? null;
}
