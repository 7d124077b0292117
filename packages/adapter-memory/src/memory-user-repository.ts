/**
 * `UserRepository` in memory: users are kept per owning client, so a lookup
 * through another client cannot find them.
 */
import { injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ClientId, DomainError, NewUser, Page, PageRequest, UserId, UserPatch, UserRecord, UserRepository } from '@debtkit/core';
import { IdSequence, applyPatch, lazyRight, pageOf } from './memory-collection.js';

const copyUser = (u: UserRecord): UserRecord => ({ ...u });

const FROZEN: ReadonlyArray<keyof UserRecord> = ['id', 'client_id', 'created_at'];

@injectable()
export class MemoryUserRepository implements UserRepository {
  /** client → (user id → user), each inner map in ascending id order. */
  private readonly byClient = new Map<ClientId, Map<UserId, UserRecord>>();
  private readonly ids = new IdSequence();
  /** Users being deleted: invisible to `get`, `list` and `update` until `delete` removes them. */
  private readonly deleting = new Set<UserId>();

  create(user: NewUser): TE.TaskEither<DomainError, UserRecord> {
    return lazyRight(() => {
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
      let users = this.byClient.get(record.client_id);
      if (users === undefined) {
        users = new Map();
        this.byClient.set(record.client_id, users);
      }
      users.set(record.id, record);
      return copyUser(record);
    });
  }

  get(clientId: ClientId, userId: UserId): TE.TaskEither<DomainError, O.Option<UserRecord>> {
    return lazyRight(() => {
      const found = this.byClient.get(clientId)?.get(userId);
      return found === undefined || this.deleting.has(userId) ? O.none : O.some(copyUser(found));
    });
  }

  list(clientId: ClientId, page: PageRequest): TE.TaskEither<DomainError, Page<UserRecord>> {
    return lazyRight(() => pageOf(this.byClient.get(clientId)?.values() ?? [], page, copyUser, (u) => !this.deleting.has(u.id)));
  }

  update(clientId: ClientId, userId: UserId, patch: UserPatch): TE.TaskEither<DomainError, O.Option<UserRecord>> {
    return lazyRight(() => {
      const users = this.byClient.get(clientId);
      const found = users?.get(userId);
      if (users === undefined || found === undefined || this.deleting.has(userId)) return O.none;
      const next = applyPatch(found, patch, FROZEN);
      users.set(userId, next); // same key: keeps its place in the ascending order
      return O.some(copyUser(next));
    });
  }

  beginDelete(clientId: ClientId, userId: UserId): TE.TaskEither<DomainError, O.Option<UserRecord>> {
    return lazyRight(() => {
      const found = this.byClient.get(clientId)?.get(userId);
      if (found === undefined) return O.none;
      this.deleting.add(userId);
      return O.some(copyUser(found));
    });
  }

  delete(clientId: ClientId, userId: UserId): TE.TaskEither<DomainError, boolean> {
    return lazyRight(() => {
      const deleted = this.byClient.get(clientId)?.delete(userId) ?? false;
      if (deleted) this.deleting.delete(userId);
      return deleted;
    });
  }
}
