import type { z } from 'zod/mini';
import type { IntegrationScope } from '@portal/contracts/call';
import type { IntegrationResult, SourceVersion } from '@portal/contracts/integration/common';
import type { Queryable } from '../../platform/db';
import type { HttpError } from '../../platform/errors';
import type { IntegrationContext } from './context';
import { removeVersioned, upsertVersioned, type IntegrationActor } from './versioned';

/**
 * One kind of record the insurer's systems load (a customer, a policy, a document pack...): how its key
 * and body are checked, whose it is, and how it is written and removed through its module's services.
 * The routes, the NDJSON bulk load and the demo seed all write through these.
 */
export interface IntegrationResource<R extends { version: SourceVersion } = { version: SourceVersion }> {
  /** The record type as bulk lines and results name it: customer, policy, quote, agency, ... */
  type: string;
  /** The scope a client needs to write it. */
  scope: IntegrationScope;
  /** The source's key: one id, or ids joined with "/" for a record inside another (a policy's pack). */
  key: z.ZodMiniType<string>;
  /** The body of an upsert, version included. */
  record: z.ZodMiniType<R>;
  /** The customer the record belongs to, or null (an agency, a notification campaign). */
  customerOf(tx: Queryable, key: string, record: R): Promise<string | null>;
  /** Writes the record in the transaction; throws HttpError 422 for a reference not held. */
  upsert(tx: Queryable, key: string, record: R): Promise<void>;
  /** Removes the record; answers whose it was, or null when nothing was there. */
  remove(tx: Queryable, key: string): Promise<{ customerId: string | null } | null>;
  /**
   * upsert for many records of this type in a few statements (a bulk load's set; each key at most once),
   * with the outcome each would have had written one after the other in line order: answers each one's
   * refusal (the HttpError upsert would throw), or undefined for one written. May throw on a database
   * error: the bulk load then rolls the set back and applies its lines one by one. Optional: a type
   * without it is applied line by line.
   */
  upsertMany?(
    tx: Queryable,
    items: ReadonlyArray<{ key: string; record: R; line: number }>,
    set: BulkSet,
  ): Promise<Array<HttpError | undefined>>;
}

/**
 * What a resource's upsertMany needs of the rest of its set: the types are written in the order the
 * service lists them (customers before their policies), so a reference may be to a record the set has
 * already written; this says when that record comes only on a later line (and so was not yet held for
 * this one).
 */
export interface BulkSet {
  /** Whether the record is created by the set on a line after `line` (not held before the set). */
  createdAfter(type: string, key: string, line: number): boolean;
}

export interface IntegrationService {
  resource(type: string): IntegrationResource | undefined;
  /** Every record type, as bulk lines name them. */
  types(): string[];
  /** `within`: the caller's transaction (the bulk load's), instead of one of its own. */
  upsert(
    type: string,
    key: string,
    record: { version: SourceVersion },
    actor: IntegrationActor,
    within?: Queryable,
  ): Promise<IntegrationResult>;
  remove(
    type: string,
    key: string,
    version: SourceVersion,
    actor: IntegrationActor,
    within?: Queryable,
  ): Promise<IntegrationResult>;
}

export function createIntegrationService(
  ctx: IntegrationContext,
  resources: () => readonly IntegrationResource[],
): IntegrationService {
  let byType: Map<string, IntegrationResource> | undefined;
  const resource = (type: string) => {
    byType ??= new Map(resources().map((r) => [r.type, r]));
    return byType.get(type);
  };
  const required = (type: string) => {
    const found = resource(type);
    if (!found) throw new Error(`No integration resource ${type}`);
    return found;
  };
  return {
    resource,
    types: () => resources().map((r) => r.type),
    upsert(type, key, record, actor, within) {
      const r = required(type);
      const { version, ...content } = record;
      return upsertVersioned(
        ctx.db,
        ctx.clock,
        // Whose it is, read after the write in its transaction (a pack's policy may be new in it); the
        // bookkeeping keeps it for erasure.
        { type, key, version, content, customerId: (tx) => r.customerOf(tx, key, record) },
        actor,
        (tx) => r.upsert(tx, key, record),
        within,
      );
    },
    remove(type, key, version, actor, within) {
      const r = required(type);
      return removeVersioned(
        ctx.db,
        ctx.clock,
        { type, key, version },
        actor,
        (tx) => r.remove(tx, key),
        within,
      );
    },
  };
}
