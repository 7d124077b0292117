/**
 * Ids that readers see in id order, for the collections clients page through
 * while other processes append to them: events (docs/decisions/webhooks.md, `GET /api/events`)
 * and webhook deliveries (`GET /api/webhook_endpoints/{id}/deliveries`), both
 * ascending by id with `starting_after`.
 *
 * The problem: an append takes its id from the counter, then inserts the
 * document. Two appends can take ids 5 and 6 and insert 6 first; a reader that
 * lists in between sees 6, pages on with `starting_after=6`, and never sees 5.
 *
 * The fix: the counter document of the collection also lists the appends
 * that may be in flight, `{ _id: <collection>, seq, appending: [{ id, started_at }] }`.
 * An append takes its id and enters it in `appending` in ONE atomic update (a
 * pipeline update), then stores the document (in a transaction: the
 * transaction commits it; ids are taken outside transactions, docs/decisions/transactions.md, so
 * the counter is no document every transaction writes). A reader reads the
 * counter document, then, in one query, its page of ids up to `seq` and which
 * of the listed ids are stored, and answers only ids up to the horizon
 *
 *     min(seq, lowest listed id whose document is not stored − 1)
 *
 * Why that is enough: an id at or below `seq` was taken before the read; if it
 * is not listed, its append had ended (stored, or never to be) before the read,
 * and if it is listed and stored, it is visible; only a listed id whose
 * document is missing may still appear, and nothing from there on is answered.
 * Ids above `seq` are taken after the read and are left for the next page. So a
 * reader that pages on from the last id it saw never passes an id whose
 * document can still appear.
 *
 * Removing an entry costs no command of its own: a stored append's entry is
 * dropped by the same process's next append (it holds nothing back meanwhile,
 * since readers find its document); an append that can never store its
 * document (the server refused the insert, the transaction aborted) removes
 * its entry at once. An append that dies in between (a crash, a lost
 * connection) would hold every later id back forever; so an entry older than
 * `ABANDONED_APPEND_MS` on the injected clock (`started_at` is the record's
 * `created_at`; readers pass their `now`) no longer counts, and any append
 * prunes it. That is far beyond the longest an insert or a transaction can take
 * (the driver gives up after `maxTimeMS` + 1 s; a transaction's attempt is
 * that many commands, and an attempt that loses a write conflict removes its
 * entries before it waits and runs again), so an abandoned id is one whose
 * document never landed.
 *
 * Processes of an older release take these ids with a plain `$inc` and no
 * entry; while such a process still runs, its appends can be skipped as before.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { MongoServerError, type Document, type Filter } from 'mongodb';
import { Id, toDetails, type Page, type PageRequest, type Timestamp } from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import type { MongoContext } from './mongo-context.js';
import type { StoredDocument } from './mongo-document-codec.js';
import type { MongoRecordCollection } from './mongo-record-collection.js';
import { StoredDocumentError, isDuplicateKeyError } from './mongo-errors.js';
import { mintedId } from './mongo-id-allocator.js';

/** After this long an append still in flight is treated as abandoned (its id as a gap). */
export const ABANDONED_APPEND_MS = 60_000;

/** The collections whose ids are handed out this way. */
export type VisibleSequenceCollection =
  typeof COLLECTION_NAMES.events | typeof COLLECTION_NAMES.webhookDeliveries | typeof COLLECTION_NAMES.auditEvents;

const Appending = t.type({ id: Id, started_at: t.string });
const SequenceCounter = t.type({ seq: Id, appending: t.union([t.undefined, t.array(Appending)]) });
type SequenceCounter = t.TypeOf<typeof SequenceCounter>;

const decodeCounter = (document: Document): SequenceCounter => {
  const decoded = SequenceCounter.decode(document);
  if (E.isLeft(decoded)) throw new StoredDocumentError(COLLECTION_NAMES.counters, document['_id'], toDetails(decoded.left));
  return decoded.right;
};

/** `I`: the kind of id the collection's records have (`Id` for audit events, which have none). */
export class MongoVisibleSequence<I extends Id = Id> {
  constructor(
    private readonly ctx: MongoContext,
    private readonly collection: VisibleSequenceCollection,
  ) {}

  private get counters() {
    return this.ctx.db.collection<{ _id: string }>(COLLECTION_NAMES.counters);
  }

  /** This process's appends of the collection whose documents are stored: dropped from the list by the next `take`. */
  private get settled(): Id[] {
    let settled = this.ctx.settledAppends.get(this.collection);
    if (settled === undefined) this.ctx.settledAppends.set(this.collection, (settled = []));
    return settled;
  }

  /**
   * Append one document: take its id (`begin`), `insert` it under that id. Its
   * entry leaves the list with this process's next append once the document is
   * stored (a reader finds the document, so a stored one holds nothing back), at
   * once when it can never be (the server refused the insert, the transaction
   * aborted), or when it counts as abandoned (a crash). In a transaction the
   * document is stored when the transaction commits.
   */
  async append<A>(startedAt: Timestamp, insert: (id: I) => Promise<A>): Promise<A> {
    const id = await this.begin(startedAt);
    if (this.ctx.session !== undefined) {
      await this.ctx.afterSettle(async (committed) => {
        if (committed) this.settled.push(id);
        else await this.end(id).catch(() => undefined);
      });
      return insert(mintedId<I>(id));
    }
    let stored: A;
    try {
      stored = await insert(mintedId<I>(id));
    } catch (error) {
      await this.failed(id, error);
      throw error;
    }
    this.settled.push(id);
    return stored;
  }

  /** Take the next id and enter it as appending, atomically; `startedAt` is the record's `created_at`. */
  async begin(startedAt: Timestamp): Promise<Id> {
    try {
      return await this.take(startedAt);
    } catch (error) {
      // Two first-ever upserts of the counter can race on `_id`; the loser's retry finds the document.
      if (!isDuplicateKeyError(error)) throw error;
      return this.take(startedAt);
    }
  }

  /** The append of `id` can never store its document: its entry leaves the list now. */
  async end(id: Id): Promise<void> {
    await this.counters.updateOne({ _id: this.collection }, { $pull: { appending: { id } } }, { maxTimeMS: this.ctx.maxTimeMS });
  }

  /**
   * End the append of `id` after its insert failed, if the failure says that
   * the insert can never land (the server answered); otherwise the entry stays
   * until it is abandoned. Never throws: the insert's error is what the caller reports.
   */
  async failed(id: Id, insertError: unknown): Promise<void> {
    if (insertError instanceof MongoServerError) await this.end(id).catch(() => undefined);
  }

  /**
   * One page of `records` matching `filter`, ascending by id, with nothing above
   * the horizon (see the module comment): the counter is read, then one query
   * answers the page and which of the appends still listed are stored.
   */
  async page<A>(records: MongoRecordCollection<A>, filter: Filter<StoredDocument>, page: PageRequest, now: Date): Promise<Page<A>> {
    const document = await this.counters.findOne({ _id: this.collection }, { maxTimeMS: this.ctx.maxTimeMS });
    if (document === null) return { items: [], hasMore: false };
    const counter = decodeCounter(document);
    const cutoff = now.getTime() - ABANDONED_APPEND_MS;
    const listed = (counter.appending ?? [])
      .filter((entry) => entry.id <= counter.seq && Date.parse(entry.started_at) > cutoff)
      .map((entry) => entry.id);
    // In `$and`, so that the page's own `_id` bound (`starting_after`) does not replace it.
    const bounded = { ...filter, $and: [{ _id: { $lte: counter.seq } }] };
    const { page: found, stored } = await records.findPageAndIds(bounded, page, listed);
    let horizon: number = counter.seq;
    for (const id of listed) if (!stored.has(id)) horizon = Math.min(horizon, id - 1);
    const visible = found.items.filter((item) => records.idOf(item) <= horizon);
    // A record cut off here is above the horizon, and so is every later one: nothing more to page to now.
    return visible.length < found.items.length ? { items: visible, hasMore: false } : found;
  }

  private async take(startedAt: Timestamp): Promise<Id> {
    const cutoff = new Date(Date.parse(startedAt) - ABANDONED_APPEND_MS).toISOString();
    const drop = this.settled.splice(0);
    try {
      const document = await this.counters.findOneAndUpdate(
        { _id: this.collection },
        [
          { $set: { seq: { $add: [{ $ifNull: ['$seq', 0] }, 1] } } },
          {
            $set: {
              appending: {
                $concatArrays: [
                  // Entries abandoned by now, and this process's stored appends, are dropped here, so the list stays short.
                  {
                    $filter: {
                      input: { $ifNull: ['$appending', []] },
                      as: 'entry',
                      cond: {
                        $and: [
                          { $gt: ['$$entry.started_at', { $literal: cutoff }] },
                          { $not: [{ $in: ['$$entry.id', { $literal: drop }] }] },
                        ],
                      },
                    },
                  },
                  [{ id: '$seq', started_at: { $literal: startedAt } }],
                ],
              },
            },
          },
        ],
        { upsert: true, returnDocument: 'after', maxTimeMS: this.ctx.maxTimeMS },
      );
      if (document === null) throw new Error(`counters: the upsert of "${this.collection}" returned no document`);
      return decodeCounter(document).seq;
    } catch (error) {
      // Not dropped: the next append drops them.
      this.settled.push(...drop);
      throw error;
    }
  }
}
