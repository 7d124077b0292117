/**
 * Users (docs/api/reference.md). A user belongs to the client that created it.
 */
import * as t from 'io-ts';
import { ClientId, IsoDate, PaymentPlanId, Timestamp, UserId, nullable } from '../shared/primitives.js';

/** How an advance pays each month (docs/sandbox-over-time.md). */
export const SandboxPayments = t.keyof({ minimum: null, none: null, plan: null }, 'SandboxPayments');
export type SandboxPayments = t.TypeOf<typeof SandboxPayments>;

/**
 * An advance of the user's sandbox clock (docs/sandbox-over-time.md), recorded on the user
 * before its first month: month i falls on `from` + i months (4's day
 * clamping), up to `months`. It is finished once the user's `sandbox_date`
 * reaches `from` + `months`; until then every advance continues it, with its
 * payments, and goes no further.
 */
export const SandboxAdvance = t.type(
  { from: IsoDate, months: t.number, payments: SandboxPayments, payment_plan_id: nullable(PaymentPlanId) },
  'SandboxAdvance',
);
export type SandboxAdvance = t.TypeOf<typeof SandboxAdvance>;

/**
 * The sandbox clock's fields (docs/sandbox-over-time.md) are optional: a user stored before
 * they existed decodes, and its date is "today" (`userToday`).
 */
export const UserRecord = t.intersection(
  [
    t.type({
      id: UserId,
      client_id: ClientId,
      first_name: nullable(t.string),
      last_name: t.string,
      email: nullable(t.string),
      date_of_birth: nullable(IsoDate),
      phone: nullable(t.string),
      created_at: Timestamp,
    }),
    t.partial({
      /** The date the user's sandbox clock was advanced to; absent or null: never advanced. */
      sandbox_date: nullable(IsoDate),
      /** The advance recorded on the user, finished or not (absent or null: none yet). */
      sandbox_advance: nullable(SandboxAdvance),
    }),
  ],
  'UserRecord',
);
export type UserRecord = t.TypeOf<typeof UserRecord>;

/**
 * The user's "today" (docs/sandbox-over-time.md): the date its sandbox clock was advanced
 * to, or the real date when it was never advanced or the real date has since
 * caught up with it (a user's clock never runs behind the world's).
 * @example userToday('2026-01-01', null) === '2026-01-01'
 */
export const userToday = (realToday: IsoDate, sandboxDate: IsoDate | null | undefined): IsoDate =>
  sandboxDate !== null && sandboxDate !== undefined && sandboxDate > realToday ? sandboxDate : realToday;

/** The API's User object. */
/** The API's User object; `sandbox_date` only in sandbox (docs/sandbox-over-time.md), absent in production. */
export const UserFields = t.type({
  id: UserId,
  first_name: nullable(t.string),
  last_name: t.string,
  email: nullable(t.string),
  date_of_birth: nullable(IsoDate),
  phone: nullable(t.string),
  created_at: Timestamp,
});
export const User = t.intersection([UserFields, t.partial({ sandbox_date: IsoDate })], 'User');
export type User = t.TypeOf<typeof User>;

/** The user as the API shows it; `sandboxToday` (the user's today, given in sandbox only) becomes `sandbox_date`. */
export const toUserView = (u: UserRecord, sandboxToday?: IsoDate): User => ({
  id: u.id,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  date_of_birth: u.date_of_birth,
  phone: u.phone,
  created_at: u.created_at,
  ...(sandboxToday === undefined ? {} : { sandbox_date: sandboxToday }),
});
