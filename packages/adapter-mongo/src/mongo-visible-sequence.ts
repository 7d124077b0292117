/**
 * Ids that readers see in id order, for the collections clients page through
 * while other processes append to them: events (DESIGN 7.11, `GET /api/events`)
 * and webhook deliveries (`GET /api/webhook_endpoints/{id}/deliveries`), both
 * ascending by id with `starting_after`.
 *
 * The problem: an append takes its id from the counter, then inserts the
 * document. Two appends can take ids 5 and 6 and insert 6 first; a reader that
 * lists in between sees 6, pages on with `starting_after=6`, and never sees 5.
 *
 * The fix, without transactions (a standalone mongod has none): the counter
 * document of the collection also lists the appends in flight,
 * `{ _id: <collection>, seq, appending: [{ id, started_at }] }`. An append takes
 * its id and enters it in `appending` in ONE atomic update (a pipeline update),
 * inserts the document, and only then removes the entry. A reader first reads
 * the counter document, then lists only ids up to the horizon
 *
 *     min(seq, lowest id still appending − 1)
 *
 * Why that is enough: an id at or below `seq` was taken before the read; if its
 * entry was gone by then, its insert had been acknowledged, so the document is
 * already visible to the list that follows. Ids above `seq` are taken after the
 * read and are left for the next page. So a reader that pages on from the last
 * id it saw never passes an id whose document can still appear.
 *
 * An append that dies between taking its id and removing the entry (a crash, a
 * network failure) would hold every later id back forever; so an entry older
 * than `ABANDONED_APPEND_MS` on the injected clock (`started_at` is the record's
 * `created_at`; readers pass their `now`) no longer counts, and the next append
 * prunes it. That is far beyond the longest an insert can take (the driver gives
 * up after `maxTimeMS` + 1 s), so an abandoned id is one whose document never
 * landed. When the server answered the insert with an error, nothing can land
 * later and the entry is removed at once.
 *
 * In a transaction (DESIGN 4.6) the id is still taken outside it, in the
 * counter, and the entry is removed once the transaction has committed or
 * aborted: only then is the document visible, or certain never to be.
 *
 * Processes of an older release take these ids with a plain `$inc` and no
 * entry; while such a process still runs, its appends can be skipped as before.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { MongoServerError, type Document } from 'mongodb';
import { Id, toDetails, type Timestamp } from '@debtkit/core';
import { COLLECTIONS } from './mongo-collections.js';
import type { MongoContext } from './mongo-context.js';
import { StoredDocumentError, isDuplicateKeyError } from './mongo-errors.js';

/** After this long an append still in flight is treated as abandoned (its id as a gap). */
export const ABANDONED_APPEND_MS = 60_000;

/** The collections whose ids are handed out this way. */
export type VisibleSequenceCollection = typeof COLLECTIONS.events | typeof COLLECTIONS.webhookDeliveries;

const Appending = t.type({ id: Id, started_at: t.string });
const SequenceCounter = t.type({ seq: Id, appending: t.union([t.undefined, t.array(Appending)]) });
type SequenceCounter = t.TypeOf<typeof SequenceCounter>;

const decodeCounter = (document: Document): SequenceCounter => {
  const decoded = SequenceCounter.decode(document);
  if (E.isLeft(decoded)) throw new StoredDocumentError(COLLECTIONS.counters, document['_id'], toDetails(decoded.left));
  return decoded.right;
};

export class MongoVisibleSequence {
  constructor(
    private readonly ctx: MongoContext,
    private readonly collection: VisibleSequenceCollection,
  ) {}

  private get counters() {
    return this.ctx.db.collection<{ _id: string }>(COLLECTIONS.counters);
  }

  /**
   * Append one document: take its id (`begin`), `insert` it under that id, end
   * the append. The insert's failure is the caller's (after `failed`). A failure
   * to remove the entry is not: the document is stored, and the entry only holds
   * later ids back from readers until it counts as abandoned; none is skipped.
   */
  async append<A>(startedAt: Timestamp, insert: (id: Id) => Promise<A>): Promise<A> {
    const id = await this.begin(startedAt);
    if (this.ctx.session !== undefined) {
      // In a transaction the document becomes visible when the transaction commits, or
      // never: the append ends when it settles, either way (a crash leaves it to be abandoned).
      await this.ctx.afterSettle(() => this.end(id).catch(() => undefined));
      return insert(id);
    }
    let stored: A;
    try {
      stored = await insert(id);
    } catch (error) {
      await this.failed(id, error);
      throw error;
    }
    await this.end(id).catch(() => undefined);
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

  /** The append of `id` is over: its document is stored, or can never be. */
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

  /** The highest id a reader may list at `now` (see the module comment); 0 before the first append. */
  async horizon(now: Date): Promise<number> {
    const document = await this.counters.findOne({ _id: this.collection }, { maxTimeMS: this.ctx.maxTimeMS });
    if (document === null) return 0;
    const counter = decodeCounter(document);
    const cutoff = now.getTime() - ABANDONED_APPEND_MS;
    let horizon: number = counter.seq;
    for (const entry of counter.appending ?? []) {
      if (Date.parse(entry.started_at) > cutoff) horizon = Math.min(horizon, entry.id - 1);
    }
    return horizon;
  }

  private async take(startedAt: Timestamp): Promise<Id> {
    const cutoff = new Date(Date.parse(startedAt) - ABANDONED_APPEND_MS).toISOString();
    const document = await this.counters.findOneAndUpdate(
      { _id: this.collection },
      [
        { $set: { seq: { $add: [{ $ifNull: ['$seq', 0] }, 1] } } },
        {
          $set: {
            appending: {
              $concatArrays: [
                // Entries abandoned by now are dropped here, so the list stays short.
                { $filter: { input: { $ifNull: ['$appending', []] }, as: 'entry', cond: { $gt: ['$$entry.started_at', { $literal: cutoff }] } } },
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
  }
}
