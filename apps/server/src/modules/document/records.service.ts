import { writeAudit } from '../../platform/audit';
import type { Queryable } from '../../platform/db';
import { badRequest, HttpError } from '../../platform/errors';
import type { DocumentContext } from './context';
import {
  accountCustomer,
  accountNumbersOf,
  billingDocumentIdsOf,
  deleteAccount,
  deleteBillingDocument,
  lockAccount,
  upsertAccount,
  upsertBillingDocument,
  type BillingAccountRow,
  type BillingKind,
} from './billing.repository';
import {
  deletePack,
  documentIdsHeldElsewhere,
  lockPack,
  packIdsOf,
  replaceDocuments,
  upsertPack,
  type DocumentKind,
  type DocumentOwner,
} from './document.repository';
import { insertFile, lockHeldFiles, type FileRef } from './files.repository';
import { documentHolders, findDocumentLink } from './links.repository';
import { markSeenButNewest } from './seen.repository';
import { recordNotices } from './notices';
import {
  discardPending,
  heldBillingSignature,
  heldDocumentSignatures,
  signatureOf,
  type NoticeInput,
} from './notices.repository';

/** One document as the insurer's records carry it; `file` null only for the demo seed's documents. */
interface DocumentInput {
  documentId: string;
  name: string;
  date: string;
  file: FileRef | null;
}

function notHeld(fieldErrors: Record<string, string>, message: string): HttpError {
  return new HttpError(422, 'REFERENCE_NOT_HELD', message, fieldErrors);
}

/** 422 naming each document whose file is not held (`${prefix}N.file.sha256`). */
async function requireFiles(
  tx: Queryable,
  entries: ReadonlyArray<{ field: string; file: FileRef | null }>,
): Promise<void> {
  const files = entries.flatMap((e) => (e.file ? [e.file.sha256] : []));
  const held = await lockHeldFiles(tx, files);
  const missing = Object.fromEntries(
    entries
      .filter((e) => e.file && !held.has(e.file.sha256))
      .map((e) => [
        e.field,
        'No file with this sha256 is held: upload it first (POST /integration/v1/files).',
      ]),
  );
  if (Object.keys(missing).length > 0) {
    throw notHeld(
      missing,
      'A document refers to a file not held: upload the file first, then send this again.',
    );
  }
}

/**
 * Writes the documents of a pack or a quote, after checking their ids and files (400/422 naming each).
 * Answers the notices they make: each document not held before (new) or held with another kind, name,
 * date or file (updated); one held as it is makes none, nor does one the write removes.
 */
async function writeDocuments(
  tx: Queryable,
  owner: DocumentOwner,
  kindOf: (index: number) => DocumentKind,
  documents: readonly DocumentInput[],
  policyNumber: string | null,
): Promise<NoticeInput[]> {
  const ids = documents.map((d) => d.documentId);
  const repeated = Object.fromEntries(
    ids.flatMap((id, i) =>
      ids.indexOf(id) === i ? [] : [[`documents.${i}.documentId`, 'This document id is given twice.']],
    ),
  );
  if (Object.keys(repeated).length > 0) throw badRequest('The request is not valid.', repeated);
  const elsewhere = await documentIdsHeldElsewhere(tx, owner, ids);
  if (elsewhere.size > 0) {
    throw notHeld(
      Object.fromEntries(
        ids.flatMap((id, i) =>
          elsewhere.has(id)
            ? [[`documents.${i}.documentId`, 'This document id is held for another pack or quote.']]
            : [],
        ),
      ),
      'A document id is held for another pack or quote: remove that one first.',
    );
  }
  await requireFiles(
    tx,
    documents.map((d, i) => ({ field: `documents.${i}.file.sha256`, file: d.file })),
  );
  const held = await heldDocumentSignatures(tx, ids);
  const notices = documents.flatMap((d, i): NoticeInput[] => {
    const before = held.get(d.documentId);
    const kind = kindOf(i);
    if (before === signatureOf([kind, d.name, d.date, d.file?.sha256, d.file?.fileName])) return [];
    return [
      {
        documentId: d.documentId,
        category: owner.packId === null ? 'quote' : 'policy',
        kind,
        change: before === undefined ? 'new' : 'updated',
        policyNumber,
      },
    ];
  });
  await replaceDocuments(
    tx,
    owner,
    documents.map((d, i) => ({
      id: d.documentId,
      kind: kindOf(i),
      name: d.name,
      date: d.date,
      file: d.file,
    })),
  );
  return notices;
}

export interface PackInput {
  title: string;
  createdAt: string;
  documents: Array<DocumentInput & { kind: DocumentKind }>;
}

export interface BillingDocumentInput {
  kind: BillingKind;
  name: string;
  date: string;
  policyNumber: string | null;
  file: FileRef | null;
}

/**
 * The document module's writes, for the integration API's records (and the demo seed, which loads the
 * same way) and for the policy module's quotes. Each takes the caller's transaction; a reference not
 * held is 422 REFERENCE_NOT_HELD naming the field.
 */
export function createDocumentRecordsService(ctx: DocumentContext) {
  // In the caller's transaction: a bulk load may have loaded the policy or customer earlier in it.
  const policyCustomer = (tx: Queryable, policyNumber: string) =>
    ctx.services.policies.holderOf(tx, policyNumber);

  return {
    /**
     * Stores an uploaded PDF by its SHA-256 in its own transaction with the audit row; answers whether it
     * was new (the same bytes are held once).
     */
    storeFile(
      file: { sha256: string; content: Uint8Array },
      actor: { clientId: string; correlationId: string | null },
    ): Promise<{ created: boolean }> {
      return ctx.db.transaction(async (tx) => {
        const created = await insertFile(tx, { ...file, createdAt: ctx.clock.now() });
        await writeAudit(tx, {
          source: 'server',
          eventId: 'integration.file.uploaded',
          onBehalfOf: `client:${actor.clientId}`,
          correlationId: actor.correlationId,
          isSuccess: true,
          occurredAt: ctx.clock.now(),
          details: {
            clientId: actor.clientId,
            sha256: file.sha256,
            size: file.content.byteLength,
            status: created ? 'created' : 'unchanged',
          },
        });
        return { created };
      });
    },

    /** The customer of a policy's packs: the policy's, or null when the policy is not held. */
    packCustomer: policyCustomer,

    async upsertPack(tx: Queryable, policyNumber: string, packId: string, pack: PackInput): Promise<void> {
      const customerId = await policyCustomer(tx, policyNumber);
      if (!customerId) {
        throw notHeld(
          { policyNumber: 'No policy with this number is held.' },
          'The policy is not held: load the policy first, then its documents.',
        );
      }
      const held = await lockPack(tx, packId);
      if (held && held.policyNumber !== policyNumber) {
        throw notHeld(
          { packId: 'This pack id is held for another policy.' },
          'The pack id is held for another policy: remove that pack first.',
        );
      }
      await upsertPack(tx, {
        packId,
        customerId,
        policyNumber,
        title: pack.title,
        createdAt: pack.createdAt,
      });
      const notices = await writeDocuments(
        tx,
        { customerId, packId, quoteNumber: null },
        (i) => pack.documents[i]!.kind,
        pack.documents,
        policyNumber,
      );
      await recordNotices(ctx, tx, customerId, notices);
    },

    removePack: (tx: Queryable, policyNumber: string, packId: string) => deletePack(tx, policyNumber, packId),

    /** The packs held for a policy (the demo seed removes those it no longer makes). */
    packIds: (policyNumber: string) => packIdsOf(ctx.db, policyNumber),

    /**
     * Makes a quote's documents exactly these (quote summaries). The quote must be written first in the
     * same transaction.
     */
    async replaceQuoteDocuments(
      tx: Queryable,
      customerId: string,
      quoteNumber: string,
      documents: readonly DocumentInput[],
    ): Promise<void> {
      const notices = await writeDocuments(
        tx,
        { customerId, packId: null, quoteNumber },
        () => 'quote_summary',
        documents,
        null,
      );
      await recordNotices(ctx, tx, customerId, notices);
    },

    /** The customer of an account's documents, or null when the account is not held. */
    accountCustomer: (tx: Queryable, accountNumber: string) => accountCustomer(tx, accountNumber),

    async upsertBillingAccount(tx: Queryable, account: BillingAccountRow): Promise<void> {
      if (!(await ctx.services.customers.held(tx, account.customerId))) {
        throw notHeld(
          { customerId: 'No customer with this id is held.' },
          'The customer is not held: load the customer first, then their billing accounts.',
        );
      }
      const heldFor = await lockAccount(tx, account.accountNumber);
      if (heldFor && heldFor !== account.customerId) {
        throw notHeld(
          { customerId: 'This account is held for another customer.' },
          'The billing account is held for another customer: remove it first.',
        );
      }
      await upsertAccount(tx, account);
    },

    removeBillingAccount: (tx: Queryable, accountNumber: string) => deleteAccount(tx, accountNumber),

    accountNumbers: (customerId: string) => accountNumbersOf(ctx.db, customerId),

    billingDocumentIds: (accountNumber: string) => billingDocumentIdsOf(ctx.db, accountNumber),

    async upsertBillingDocument(
      tx: Queryable,
      accountNumber: string,
      documentId: string,
      doc: BillingDocumentInput,
    ): Promise<void> {
      const customerId = await lockAccount(tx, accountNumber);
      if (!customerId) {
        throw notHeld(
          { accountNumber: 'No billing account with this number is held.' },
          'The billing account is not held: load the account first, then its documents.',
        );
      }
      await requireFiles(tx, [{ field: 'file.sha256', file: doc.file }]);
      const before = await heldBillingSignature(tx, documentId);
      if (!(await upsertBillingDocument(tx, customerId, accountNumber, { id: documentId, ...doc }))) {
        throw notHeld(
          { documentId: 'This document id is held for another billing account.' },
          'The document id is held for another billing account: remove that one first.',
        );
      }
      const after = signatureOf([
        doc.kind,
        doc.name,
        doc.date,
        doc.policyNumber,
        doc.file?.sha256,
        doc.file?.fileName,
      ]);
      if (before !== after) {
        await recordNotices(ctx, tx, customerId, [
          {
            documentId,
            category: 'bill',
            kind: doc.kind,
            change: before === undefined ? 'new' : 'updated',
            policyNumber: null,
          },
        ]);
      }
    },

    /**
     * A customer message (the module above that holds them) arrived or changed, in its write's transaction:
     * notified as a document is, in the same email as documents arriving in the same window (issue 40).
     */
    recordMessageNotice: (
      tx: Queryable,
      customerId: string,
      message: { messageId: string; category: string; change: 'new' | 'updated' },
    ) =>
      recordNotices(ctx, tx, customerId, [
        {
          documentId: message.messageId,
          category: 'message',
          kind: message.category,
          change: message.change,
          policyNumber: null,
        },
      ]),

    /**
     * The customers holding a document with this id (a bill, a policy's or a quote's document), in the
     * caller's transaction: whether a customer message may link to it (the message module).
     */
    documentHolders: (tx: Queryable, documentId: string) => documentHolders(tx, documentId),

    /** The customer's document with this id, as its page lists it (a message's link); null when not theirs. */
    documentLink: (customerId: string, documentId: string) =>
      findDocumentLink(ctx.db, customerId, documentId),

    removeBillingDocument: (tx: Queryable, accountNumber: string, documentId: string) =>
      deleteBillingDocument(tx, accountNumber, documentId),

    /**
     * The demo seed only: its own loads tell no one (a demo customer would be emailed of every document
     * each day the demo data moves on).
     */
    discardDemoNotices: (customerIds: readonly string[]) => discardPending(ctx.db, customerIds),

    /**
     * The demo seed only: the customer has opened all but their newest documents (the newest bill of each
     * account, the documents of each policy's newest pack), which show New (issue 40).
     */
    markDemoSeen: (customerId: string) => markSeenButNewest(ctx.db, customerId, ctx.clock.now()),
  };
}
export type DocumentRecordsService = ReturnType<typeof createDocumentRecordsService>;
