/**
 * `UserRepository` in memory: users are kept per owning client, so a lookup
 * through another client cannot find them.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ClientId, StoreError, NewUser, Page, PageRequest, UserId, UserPatch, UserRecord, UserRepository } from '@debtkit/core';
import { MEMORY_SESSION, applyPatch, lazyEither, lazyRight, pageOf } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

const copyUser = (u: UserRecord): UserRecord =>
  u.sandbox_advance === undefined || u.sandbox_advance === null ? { ...u } : { ...u, sandbox_advance: { ...u.sandbox_advance } };

const FROZEN: ReadonlyArray<keyof UserRecord> = ['id', 'client_id', 'created_at'];

@injectable()
export class MemoryUserRepository implements UserRepository {
  /** client → user id → user. */
  private readonly users;
  private readonly ids;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.users = s.db.table<ClientId, UserId, UserRecord>('users');
    this.ids = s.db.ids('users');
  }

  create(user: NewUser): TE.TaskEither<StoreError, UserRecord> {
    return lazyEither(() => {
      const record: UserRecord = {
        id: this.ids.next(),
        client_id: user.client_id,
        first_name: user.first_name,
        last_name: user.last_name,
        email: user.email,
        date_of_birth: user.date_of_birth,
        phone: user.phone,
        created_at: user.created_at,
      };
      const done = this.users.set(this.s, record.client_id, record.id, record);
      return E.isLeft(done) ? done : E.right(copyUser(record));
    });
  }

  get(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, O.Option<UserRecord>> {
    return lazyRight(() => {
      const found = this.users.get(this.s, clientId, userId);
      return found === undefined ? O.none : O.some(copyUser(found));
    });
  }

  list(clientId: ClientId, page: PageRequest): TE.TaskEither<StoreError, Page<UserRecord>> {
    return lazyRight(() => pageOf(this.users.values(this.s, clientId), page, copyUser));
  }

  update(clientId: ClientId, userId: UserId, patch: UserPatch): TE.TaskEither<StoreError, O.Option<UserRecord>> {
    return lazyEither(() => {
      const found = this.users.get(this.s, clientId, userId);
      if (found === undefined) return E.right(O.none);
      const next = applyPatch(found, patch, FROZEN);
      const done = this.users.set(this.s, clientId, userId, next);
      return E.isLeft(done) ? done : E.right(O.some(copyUser(next)));
    });
  }

  touch(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, boolean> {
    return lazyEither(() => {
      const found = this.users.get(this.s, clientId, userId);
      if (found === undefined) return E.right(false);
      const done = this.users.set(this.s, clientId, userId, found);
      return E.isLeft(done) ? done : E.right(true);
    });
  }

  touchAndGet(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, O.Option<UserRecord>> {
    return lazyEither(() => {
      const found = this.users.get(this.s, clientId, userId);
      if (found === undefined) return E.right(O.none);
      const done = this.users.set(this.s, clientId, userId, found);
      return E.isLeft(done) ? done : E.right(O.some(copyUser(found)));
    });
  }

  delete(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, boolean> {
    return lazyEither(() => this.users.delete(this.s, clientId, userId));
  }
}
