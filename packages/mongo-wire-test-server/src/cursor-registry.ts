/**
 * Server-side cursors of find, aggregate, listCollections and listIndexes.
 * A cursor holds the full result computed when it was opened (documents are
 * immutable in the store, so this is a consistent snapshot) and hands it out
 * in batches. Ids are int64 on the wire, as the driver requires.
 */
import { BSON, Long, type Document } from 'mongodb';
import { CommandError } from './command-error.js';

/** A real server caps a batch at 16 MiB of documents; the reply must also fit the BSON serializer. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;
/** A real server's first batch when the client gives no batchSize. */
const DEFAULT_FIRST_BATCH = 101;

interface OpenCursor {
  readonly namespace: string;
  /** The session (its lsid key) the cursor was opened in, if any: killing the session kills it. */
  readonly session: string | undefined;
  readonly documents: readonly Document[];
  position: number;
}

export class CursorRegistry {
  readonly #cursors = new Map<number, OpenCursor>();
  #nextId = 1;

  /**
   * The `cursor` field of a reply. The cursor stays registered only when
   * documents remain and the client did not ask for a single batch.
   */
  open(
    namespace: string,
    documents: readonly Document[],
    options: { batchSize?: number | undefined; singleBatch?: boolean | undefined; session?: string | undefined },
  ): Document {
    const { batch, next } = takeBatch(documents, 0, options.batchSize ?? DEFAULT_FIRST_BATCH);
    let id = 0;
    if (next < documents.length && options.singleBatch !== true) {
      id = this.#nextId++;
      this.#cursors.set(id, { namespace, documents, position: next, session: options.session });
    }
    return { firstBatch: batch, id: Long.fromNumber(id), ns: namespace };
  }

  /** The `cursor` field of a getMore reply. */
  more(rawId: unknown, collection: string, batchSize: number | undefined): Document {
    const id = cursorNumber(rawId);
    const cursor = this.#cursors.get(id);
    if (cursor === undefined) throw new CommandError('CursorNotFound', `cursor id ${String(id)} not found`);
    const cursorCollection = cursor.namespace.slice(cursor.namespace.indexOf('.') + 1);
    if (cursorCollection !== collection) {
      throw new CommandError(
        'BadValue',
        `Requested getMore on namespace '${collection}', but cursor belongs to a different namespace ${cursor.namespace}`,
      );
    }
    // Without batchSize a getMore returns as much as fits in one reply.
    const { batch, next } = takeBatch(cursor.documents, cursor.position, batchSize !== undefined && batchSize > 0 ? batchSize : Infinity);
    cursor.position = next;
    const exhausted = next >= cursor.documents.length;
    if (exhausted) this.#cursors.delete(id);
    return { nextBatch: batch, id: Long.fromNumber(exhausted ? 0 : id), ns: cursor.namespace };
  }

  /** killCursors reply fields. */
  kill(rawIds: readonly unknown[]): Document {
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const rawId of rawIds) {
      const id = cursorNumber(rawId);
      (this.#cursors.delete(id) ? killed : notFound).push(Long.fromNumber(id));
    }
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [] };
  }

  /** Closes every cursor opened in a session `killed` accepts (killSessions, killAllSessions); answers how many. */
  killSessions(killed: (session: string) => boolean): number {
    let count = 0;
    for (const [id, cursor] of this.#cursors) {
      if (cursor.session !== undefined && killed(cursor.session)) {
        this.#cursors.delete(id);
        count += 1;
      }
    }
    return count;
  }

  clear(): void {
    this.#cursors.clear();
  }
}

/** Commands arrive with promoted longs, so small ids are plain numbers. */
function cursorNumber(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (Long.isLong(raw)) return raw.toNumber();
  if (typeof raw === 'bigint') return Number(raw);
  throw new CommandError('TypeMismatch', 'cursor id must be an integer');
}

function takeBatch(documents: readonly Document[], start: number, maxCount: number): { batch: Document[]; next: number } {
  const batch: Document[] = [];
  let bytes = 0;
  let next = start;
  while (next < documents.length && batch.length < maxCount) {
    const document = documents[next] as Document;
    const size = BSON.calculateObjectSize(document);
    if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
    batch.push(document);
    bytes += size;
    next += 1;
  }
  return { batch, next };
}
