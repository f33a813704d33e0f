import { describe, expect, it } from 'vitest';
import { databases } from '../../../test/helpers';
import { writeAudit } from '../../platform/audit';

class Rollback extends Error {}

describe.each(databases())('audit_event on $name', ({ open }) => {
  it('accepts new rows and refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = await open();
    const eventId = `test.append-only.${Date.now()}.${Math.random().toString(36).slice(2)}`;
    try {
      await db
        .transaction(async (tx) => {
          await writeAudit(tx, {
            source: 'client',
            eventId,
            sessionId: 's-1',
            details: { marketingConsent: true },
          });
          const inserted = await tx.query<{ id: number }>('SELECT id FROM audit_event WHERE event_id = $1', [
            eventId,
          ]);
          expect(inserted.rows).toHaveLength(1);

          const refused = async (sql: string) => {
            await tx.query('SAVEPOINT attempt');
            const error = await tx.query(sql, sql.includes('$1') ? [eventId] : []).then(
              () => null,
              (e: unknown) => e as Error,
            );
            await tx.query('ROLLBACK TO SAVEPOINT attempt');
            return error?.message ?? 'not refused';
          };
          expect(await refused(`UPDATE audit_event SET is_success = false WHERE event_id = $1`)).toMatch(
            /append-only/,
          );
          expect(await refused(`DELETE FROM audit_event WHERE event_id = $1`)).toMatch(/append-only/);
          expect(await refused('TRUNCATE audit_event')).toMatch(/append-only/);

          const still = await tx.query<{ is_success: boolean | null }>(
            'SELECT is_success FROM audit_event WHERE event_id = $1',
            [eventId],
          );
          expect(still.rows).toEqual([{ is_success: null }]);
          throw new Rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof Rollback)) throw error;
        });
    } finally {
      await db.close();
    }
  });
});
