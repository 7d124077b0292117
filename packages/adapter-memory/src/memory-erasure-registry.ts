/**
 * `ErasureRegistry` in memory: one marker per user, partitioned by client.
 * Markers are read whatever their `expires_at`: by then everything they
 * redact has expired itself (the mongo store lets its TTL index remove them).
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ClientId, StoreError, ErasureMarker, ErasureRegistry, UserId } from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

@injectable()
export class MemoryErasureRegistry implements ErasureRegistry {
  /** client → user → the user's marker. */
  private readonly markers;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.markers = s.db.table<ClientId, UserId, ErasureMarker>('erasures');
  }

  record(marker: ErasureMarker): TE.TaskEither<StoreError, void> {
    return lazyEither(() =>
      this.markers.get(this.s, marker.client_id, marker.user_id) !== undefined
        ? E.right(undefined)
        : this.markers.set(this.s, marker.client_id, marker.user_id, { ...marker }),
    );
  }

  erasedAmong(clientId: ClientId, userIds: ReadonlyArray<UserId>): TE.TaskEither<StoreError, ReadonlySet<UserId>> {
    return lazyRight(() => new Set(userIds.filter((id) => this.markers.get(this.s, clientId, id) !== undefined)));
  }
}
