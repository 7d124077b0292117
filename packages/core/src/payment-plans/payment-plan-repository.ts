import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { StoreError } from '../shared/errors.js';
import { monthsAfter, type PaymentPlanRecord, type ScheduleMonth } from './payment-plan.js';
import type { ClientId, PaymentPlanId, UserId } from '../shared/primitives.js';
import { owned, type OwnedRead, type OwnerFacts } from '../shared/owned-read.js';
import type { Page, PageRequest } from '../shared/paging.js';

export type NewPaymentPlan = Omit<PaymentPlanRecord, 'id'>;

/** A payment under a plan writes the plan (`touch`), so it conflicts with the plan's delete (docs/decisions/transactions.md). */
export interface PaymentPlanRepository {
  /**
   * `owner` is the client that owns the plan's user: a store may keep it with
   * the plan so that `touchOwned` can check the owner in the same command that
   * writes the plan (the memory store checks the user itself and ignores it).
   * `ownerFacts` (the user's clock as the creation read it, docs/sandbox-over-time.md) may be
   * kept beside it for the same reason: `touchOwned` then answers them without
   * reading the user. A store that keeps them keeps them current when
   * `UserRepository.update` moves the user's clock.
   */
  create(plan: NewPaymentPlan, owner?: ClientId, ownerFacts?: OwnerFacts): TE.TaskEither<StoreError, PaymentPlanRecord>;
  get(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, O.Option<PaymentPlanRecord>>;
  list(userId: UserId, page: PageRequest): TE.TaskEither<StoreError, Page<PaymentPlanRecord>>;
  /** `get` through the owning user, checked in the same read (owned-read.ts): `none` when the client has no such user. */
  getOwned(clientId: ClientId, userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, OwnedRead<O.Option<PaymentPlanRecord>>>;
  /**
   * Part of a plan's schedule through the owning user, checked in the same read
   * (owned-read.ts): at most `count` of its months after month `after`, in
   * order, read without the rest of the plan (a schedule is up to 1 MiB of
   * it). `none` when the client has no such user; `some(none)` when the user
   * has no such plan. Optional: without it, the schedule page is cut from
   * `getOwned`'s whole plan (a store written for core 2.0 keeps working).
   */
  getScheduleOwned?(
    clientId: ClientId,
    userId: UserId,
    planId: PaymentPlanId,
    after: number,
    count: number,
  ): TE.TaskEither<StoreError, OwnedRead<O.Option<ReadonlyArray<ScheduleMonth>>>>;
  /** `list` through the owning user, checked in the same read (owned-read.ts): `none` when the client has no such user. */
  listOwned(clientId: ClientId, userId: UserId, page: PageRequest): TE.TaskEither<StoreError, OwnedRead<Page<PaymentPlanRecord>>>;
  /** Write the plan record without changing what it answers (the owner bump, see `UserRepository.touch`); `false` when there is no such plan. */
  touch(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, boolean>;
  /**
   * `getOwned` that also writes the plan found (`touch`), as a payment under the
   * plan needs (docs/decisions/transactions.md): on MongoDB one `findOneAndUpdate` for a plan
   * created with its `owner` (docs/performance.md, the payment's command budget).
   * Only inside a transaction: a caller that rejects the plan aborts, and the
   * write is undone with everything else.
   */
  touchOwned(clientId: ClientId, userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, OwnedRead<O.Option<PaymentPlanRecord>>>;
  delete(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, boolean>;
  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number>;
  /** How many plans the user has (the plans-per-user quota, shared/quotas.ts). */
  countForUser(userId: UserId): TE.TaskEither<StoreError, number>;
}

/**
 * `getScheduleOwned` answered through `getOwned`: the whole plan read, its
 * months cut. What a store that keeps whole plans at hand (the memory store)
 * implements it with, and what `getPaymentPlanSchedule` falls back to for a
 * store without it.
 */
export const scheduleThroughPlan = (
  plans: Pick<PaymentPlanRepository, 'getOwned'>,
  clientId: ClientId,
  userId: UserId,
  planId: PaymentPlanId,
  after: number,
  count: number,
): TE.TaskEither<StoreError, OwnedRead<O.Option<ReadonlyArray<ScheduleMonth>>>> =>
  pipe(
    plans.getOwned(clientId, userId, planId),
    TE.map((read) =>
      O.isNone(read) ? read : owned(O.map((plan: PaymentPlanRecord) => monthsAfter(plan.schedule, after, count))(read.value), read.owner),
    ),
  );
