/**
 * Branded primitives shared by every resource: ids, money and calendar dates.
 * Codecs are the source of the types; nothing here reads the clock.
 */
import * as t from 'io-ts';
import { describedAs } from './codec.js';

export interface IdBrand {
  readonly Id: unique symbol;
}
/** A positive safe integer identifier (1 … 2^53−1). */
export const Id = describedAs(
  t.brand(t.number, (n): n is t.Branded<number, IdBrand> => Number.isSafeInteger(n) && n > 0, 'Id'),
  'a positive integer id',
);
export type Id = t.TypeOf<typeof Id>;

declare const idKind: unique symbol;
/**
 * The kinds of id, one per resource that has one: a slot of keys (docs/decisions/ids.md). A new
 * resource adds its kind from its own codec file, by module augmentation
 * (`declare module '../shared/primitives.js' { interface IdKinds { readonly goal: true } }`), so the
 * kernel's list is not edited; `idCodecOf` gives every kind its codec.
 */
export interface IdKinds extends KernelIdKinds {}
/** The kinds the kernel lists. */
interface KernelIdKinds {
  readonly client: true;
  readonly token: true;
  readonly user: true;
  readonly account: true;
  readonly credit_score: true;
  readonly payment_plan: true;
  readonly plan_payment: true;
  readonly article: true;
  readonly webhook_endpoint: true;
  readonly webhook_delivery: true;
  readonly event: true;
}
/** A kind of id: a key of `IdKinds`. */
export type IdKind = keyof IdKinds;
/**
 * An id of one kind (a brand per kind): an id of another kind is not one, so
 * a swapped pair of ids does not compile (`touchOwned(userId, clientId, planId)`),
 * and neither is an `Id` of no kind. An id gets its kind where it enters
 * (docs/decisions/ids.md): its codec (`UserId.decode`, a record or request codec
 * whose field is a `UserId`), the store that mints it, or `idOf('user', 7)`.
 * The kind exists only for the compiler: at run time an id is its number.
 */
export type IdOf<K extends IdKind> = Id & { readonly [idKind]: K };
export type ClientId = IdOf<'client'>;
export type TokenId = IdOf<'token'>;
export type UserId = IdOf<'user'>;
export type AccountId = IdOf<'account'>;
export type CreditScoreId = IdOf<'credit_score'>;
export type PaymentPlanId = IdOf<'payment_plan'>;
export type PlanPaymentId = IdOf<'plan_payment'>;
export type ArticleId = IdOf<'article'>;
export type WebhookEndpointId = IdOf<'webhook_endpoint'>;
export type WebhookDeliveryId = IdOf<'webhook_delivery'>;
export type EventId = IdOf<'event'>;

/**
 * The codec of one kind of id: `Id` itself, typed as decoding to an id of that
 * kind. The one unchecked step of the kinds: the kind is a compile-time mark
 * that `Id`'s check (a positive safe integer) is all there is to, so the codec
 * stays `Id` and a kinded decode costs what an `Id` decode does.
 */
const idOfKind = <K extends IdKind>(): t.Type<IdOf<K>, number, unknown> => Id as unknown as t.Type<IdOf<K>, number, unknown>;
export const ClientId = idOfKind<'client'>();
export const TokenId = idOfKind<'token'>();
export const UserId = idOfKind<'user'>();
export const AccountId = idOfKind<'account'>();
export const CreditScoreId = idOfKind<'credit_score'>();
export const PaymentPlanId = idOfKind<'payment_plan'>();
export const PlanPaymentId = idOfKind<'plan_payment'>();
export const ArticleId = idOfKind<'article'>();
export const WebhookEndpointId = idOfKind<'webhook_endpoint'>();
export const WebhookDeliveryId = idOfKind<'webhook_delivery'>();
export const EventId = idOfKind<'event'>();

/**
 * The codec of any kind of id, a kind added by augmentation too: `Id`'s own (`idOfKind`), typed with
 * the kind.
 */
export const idCodecOf = <K extends IdKind>(_kind: K): t.Type<IdOf<K>, number, unknown> => idOfKind<K>();

/** The codec of each kind of id the kernel lists (`idCodecOf` gives any kind's, a kind added by augmentation too). */
export const ID_CODECS: { readonly [K in keyof KernelIdKinds]: t.Type<IdOf<K>, number, unknown> } = {
  client: ClientId,
  token: TokenId,
  user: UserId,
  account: AccountId,
  credit_score: CreditScoreId,
  payment_plan: PaymentPlanId,
  plan_payment: PlanPaymentId,
  article: ArticleId,
  webhook_endpoint: WebhookEndpointId,
  webhook_delivery: WebhookDeliveryId,
  event: EventId,
};

export interface CentsBrand {
  readonly Cents: unique symbol;
}
/** Money: a non-negative safe integer number of cents. */
export const Cents = describedAs(
  t.brand(t.number, (n): n is t.Branded<number, CentsBrand> => Number.isSafeInteger(n) && n >= 0, 'Cents'),
  'a whole number of cents (0 or more)',
);
export type Cents = t.TypeOf<typeof Cents>;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days in a month of the proleptic Gregorian calendar (month 1–12). */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** Whether year, month and day name a day that exists (2023-02-30 does not). */
const isCalendarDate = (y: number, mo: number, d: number): boolean => y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);

export interface IsoDateBrand {
  readonly IsoDate: unique symbol;
}
/** A calendar date `YYYY-MM-DD` that exists (2023-02-30 is rejected). */
export const IsoDate = describedAs(
  t.brand(
    t.string,
    (s): s is t.Branded<string, IsoDateBrand> => {
      const m = ISO_DATE.exec(s);
      return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
    },
    'IsoDate',
  ),
  'a YYYY-MM-DD date',
);
export type IsoDate = t.TypeOf<typeof IsoDate>;

export interface TimestampBrand {
  readonly Timestamp: unique symbol;
}
const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{3})?Z$/;

/**
 * An ISO-8601 UTC timestamp as produced by `Date.prototype.toISOString`, of a
 * moment that exists: `2026-02-30T00:00:00Z` or `T24:00:00Z` is refused, not
 * read as another day (`Date.parse` would roll it over to 2 March).
 */
export const Timestamp = describedAs(
  t.brand(
    t.string,
    (s): s is t.Branded<string, TimestampBrand> => {
      const m = ISO_TIMESTAMP.exec(s);
      return (
        m !== null &&
        isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
        Number(m[4]) <= 23 &&
        Number(m[5]) <= 59 &&
        Number(m[6]) <= 59
      );
    },
    'Timestamp',
  ),
  'an ISO-8601 UTC timestamp of a real moment (YYYY-MM-DDTHH:MM:SSZ)',
);
export type Timestamp = t.TypeOf<typeof Timestamp>;

/** The number of the two ASCII digits of `s` at `i` and `i + 1`. */
const twoDigits = (s: string, i: number): number => (s.charCodeAt(i) - 48) * 10 + s.charCodeAt(i + 1) - 48;

/**
 * Split a valid date into its numeric parts. Read digit by digit (a payoff run or an outlook
 * dates every month: `split` and `Number` were 8% of an outlook, docs/performance.md); a date of
 * another length than `YYYY-MM-DD` (a year past 9999, which month arithmetic can reach) is split.
 */
export const dateParts = (date: IsoDate): { year: number; month: number; day: number } => {
  if (date.length !== 10) {
    const [y, m, d] = date.split('-');
    return { year: Number(y), month: Number(m), day: Number(d) };
  }
  return { year: twoDigits(date, 0) * 100 + twoDigits(date, 2), month: twoDigits(date, 5), day: twoDigits(date, 8) };
};

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** `pad(n, 2)` for 0–99, made once. */
const TWO_DIGITS: ReadonlyArray<string> = Array.from({ length: 100 }, (_, n) => pad(n, 2));

/** Build a date from parts that are known to be valid. */
export const makeDate = (year: number, month: number, day: number): IsoDate =>
  `${year >= 1000 && year <= 9999 ? String(year) : pad(year, 4)}-${TWO_DIGITS[month] ?? pad(month, 2)}-${TWO_DIGITS[day] ?? pad(day, 2)}` as IsoDate;

/**
 * Month n of a projection (docs/decisions/api-conventions.md): `date` plus n calendar months, the day
 * clamped to the last day of the target month.
 * @example addMonths('2024-01-31', 1) === '2024-02-29'
 */
export const addMonths = (date: IsoDate, n: number): IsoDate => {
  const { year, month, day } = dateParts(date);
  return addMonthsToParts(year, month, day, n);
};

/** `addMonths` of the date whose parts are given (a caller that keeps a start date's parts, as the money engine does). */
export const addMonthsToParts = (year: number, month: number, day: number, n: number): IsoDate => {
  const index = year * 12 + (month - 1) + n;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return makeDate(y, m, Math.min(day, daysInMonth(y, m)));
};

const toEpochDay = (date: IsoDate): number => {
  const { year, month, day } = dateParts(date);
  return Math.round(Date.UTC(year, month - 1, day) / 86_400_000);
};

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: IsoDate, to: IsoDate): number => toEpochDay(to) - toEpochDay(from);

/** Add (or subtract) whole days. */
export const addDays = (date: IsoDate, days: number): IsoDate =>
  new Date((toEpochDay(date) + days) * 86_400_000).toISOString().slice(0, 10) as IsoDate;

/** The UTC calendar date of an instant. */
export const utcDate = (instant: Date): IsoDate => instant.toISOString().slice(0, 10) as IsoDate;

/** The ISO-8601 UTC timestamp of an instant. */
export const timestampOf = (instant: Date): Timestamp => instant.toISOString() as Timestamp;

/**
 * Round to 2 decimals, half away from zero, robust to binary representation
 * (2.675 → 2.68, -1.005 → -1.01).
 */
export const round2 = (x: number): number => {
  const sign = x < 0 ? -1 : 1;
  const hundredths = Math.abs(x) * 100;
  // Correcting the binary representation (`toPrecision(15)`, a string and back) can only change the result
  // near a half: under 1e9 it moves the value by under 1e-6, so a value further than that from k + 0.5
  // rounds the same without it (`round2Exact` in the tests checks this against the full correction).
  // The correction was 10% of an outlook (docs/performance.md).
  const fraction = hundredths - Math.floor(hundredths);
  const scaled = hundredths < 1e9 && Math.abs(fraction - 0.5) > 1e-6 ? hundredths : Number(hundredths.toPrecision(15));
  return (sign * Math.round(scaled)) / 100 || 0;
};

/** A codec that accepts `null` or the given codec: absent values are `null` (docs/decisions/api-conventions.md). */
export const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);
