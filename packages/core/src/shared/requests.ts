/**
 * Request codecs: the single source of truth for what each operation accepts
 * (the HTTP adapter decodes with them; the OpenAPI document is generated from them).
 * Objects are strict: unknown fields are rejected.
 */
import * as t from 'io-ts';
import { AccountId, Cents, ID_CODECS, Id, IsoDate, PaymentPlanId, nullable, type IdKind, type IdOf } from './primitives.js';
import { boundedInt, boundedString, describedAs, strictObject } from './codec.js';
import { AccountName, AccountStatus, AccountSubtype, AccountType, Apr, Mask, PaymentsHistory } from '../accounts/account.js';
import { CustomOrder, ExtraPayments, Strategy } from '../payment-plans/payment-plan.js';
import { Balance, statementTermsProps } from '../accounts/statement-terms.js';
import { Category } from '../content/content.js';
import { SandboxPayments } from '../users/user.js';
import { MAX_ADVANCE_MONTHS } from '../sandbox/sandbox-clock.js';

const PositiveCents = describedAs(
  t.refinement(Cents, (n) => n > 0, 'positive cents'),
  'a positive whole number of cents',
);
const Name = boundedString(1, 100, 'string(1..100)');
const Email = t.refinement(boundedString(3, 254, 'email'), (s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), 'email');
const Phone = t.refinement(t.string, (s) => /^\+?[0-9 ()-]{7,20}$/.test(s), 'phone(7..20 digits, spaces, +()-)');
const Text = (max: number) => boundedString(0, max, `string(0..${max})`);

const userFields = {
  first_name: nullable(Name),
  email: nullable(Email),
  date_of_birth: nullable(IsoDate),
  phone: nullable(Phone),
};

export const CreateUserBody = strictObject('CreateUserBody', { last_name: Name }, userFields);
export type CreateUserBody = t.TypeOf<typeof CreateUserBody>;

export const PatchUserBody = strictObject('PatchUserBody', {}, { last_name: Name, ...userFields });
export type PatchUserBody = t.TypeOf<typeof PatchUserBody>;

export const LinkAccountBody = strictObject(
  'LinkAccountBody',
  { name: AccountName, type: AccountType, subtype: AccountSubtype, balance: Balance },
  {
    mask: nullable(Mask),
    status: AccountStatus,
    nickname: nullable(Text(100)),
    institution_apr: nullable(Apr),
    institution_minimum_payment: nullable(Cents),
    original_loan_amount: nullable(Cents),
    limit: nullable(Cents),
    last_payment_amount: nullable(Cents),
    last_payment_date: nullable(IsoDate),
    opened_at: nullable(IsoDate),
    institution_name: nullable(Text(200)),
    institution_logo: nullable(
      t.refinement(boundedString(0, 200_000, 'base64 image'), (s) => /^[A-Za-z0-9+/]*={0,2}$/.test(s), 'base64 image (≤200000 chars)'),
    ),
    next_payment_due_date: nullable(IsoDate),
    first_time_payment: nullable(t.boolean),
    payments_history: PaymentsHistory,
    // The statement terms (docs/decisions/payoff-and-outlook.md; accounts/statement-terms.ts).
    ...statementTermsProps,
  },
);
export type LinkAccountBody = t.TypeOf<typeof LinkAccountBody>;

export const PatchAccountBody = strictObject(
  'PatchAccountBody',
  {},
  {
    nickname: nullable(Text(100)),
    user_apr: nullable(Apr),
    user_minimum_payment: nullable(Cents),
    user_next_payment_date: nullable(IsoDate),
    status: AccountStatus,
    // The statement terms (docs/decisions/payoff-and-outlook.md; accounts/statement-terms.ts): null clears one.
    ...statementTermsProps,
  },
);
export type PatchAccountBody = t.TypeOf<typeof PatchAccountBody>;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** An IPv6 literal (RFC 4291 text forms, incl. `::` compression and an IPv4 tail). */
const isIpv6 = (s: string): boolean => {
  if (s.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  const halves = s.split('::');
  if (halves.length > 2) return false;
  const groups = (part: string): string[] | null => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0] ?? '');
  const tail = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (head === null || tail === null) return false;
  const all = [...head, ...tail];
  let count = 0;
  for (let i = 0; i < all.length; i++) {
    const g = all[i] ?? '';
    if (i === all.length - 1 && g.includes('.')) {
      if (!IPV4.test(g)) return false;
      count += 2;
    } else if (/^[0-9A-Fa-f]{1,4}$/.test(g)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count < 8 : count === 8;
};
/** The user's IP address: an IPv4 or IPv6 literal of at least 7 characters (docs/api/reference.md). */
export const DeviceIp = t.refinement(t.string, (s) => s.length >= 7 && (IPV4.test(s) || isIpv6(s)), 'IP address (IPv4 or IPv6, ≥7 chars)');
export const InvokeBureauBody = strictObject('InvokeBureauBody', { device_ip: DeviceIp });
export type InvokeBureauBody = t.TypeOf<typeof InvokeBureauBody>;

export const ConsentBody = strictObject('ConsentBody', { accepted: t.literal(true) });
export const OtpBody = strictObject('OtpBody', {
  code: t.refinement(t.string, (s) => /^[0-9]{6}$/.test(s), '6-digit code'),
});
export type OtpBody = t.TypeOf<typeof OtpBody>;
export const IdentityBody = strictObject('IdentityBody', {
  ssn_last4: t.refinement(t.string, (s) => /^[0-9]{4}$/.test(s), '4 digits'),
  date_of_birth: IsoDate,
});
export type IdentityBody = t.TypeOf<typeof IdentityBody>;

const planBudgetFields = {
  account_ids: t.refinement(
    t.array(AccountId),
    (a) => a.length >= 1 && a.length <= 100 && new Set(a).size === a.length,
    'distinct account ids (1..100)',
  ),
  // docs/decisions/payoff-and-outlook.md: the use case checks the custom order against the plan's accounts and start_date against today.
  custom_order: CustomOrder,
  extra_payments: ExtraPayments,
  start_date: IsoDate,
};

export const CreatePaymentPlanBody = strictObject(
  'CreatePaymentPlanBody',
  { strategy: Strategy, monthly_payment: PositiveCents },
  planBudgetFields,
);
export type CreatePaymentPlanBody = t.TypeOf<typeof CreatePaymentPlanBody>;

/** The plan body minus `strategy` (docs/decisions/payoff-and-outlook.md): every strategy is computed. */
export const ComparePaymentPlansBody = strictObject('ComparePaymentPlansBody', { monthly_payment: PositiveCents }, planBudgetFields);
export type ComparePaymentPlansBody = t.TypeOf<typeof ComparePaymentPlansBody>;

export const PlanPaymentBody = strictObject('PlanPaymentBody', { account_id: AccountId, amount: PositiveCents }, { date: IsoDate });
export type PlanPaymentBody = t.TypeOf<typeof PlanPaymentBody>;

const DebtCalculatorByPayment = strictObject('DebtCalculatorByPayment', {
  balance: PositiveCents,
  apr: Apr,
  monthly_payment: PositiveCents,
});
const DebtCalculatorByMonths = strictObject('DebtCalculatorByMonths', { balance: PositiveCents, apr: Apr, months: boundedInt(1, 600) });
const EitherDirection = t.union([DebtCalculatorByPayment, DebtCalculatorByMonths], 'DebtCalculatorBody');
const EXACTLY_ONE = 'must have exactly one of monthly_payment or months';
/**
 * `{balance, apr, monthly_payment}` or `{balance, apr, months}` (docs/decisions/payoff-and-outlook.md).
 * Which key is present picks the direction, so a bad body hears only that
 * direction's errors, and both or neither get one clear message (a plain
 * union would answer "months is not a known field" and "monthly_payment is not
 * a known field"). Still a union to the tools that describe codecs (OpenAPI oneOf).
 */
export const DebtCalculatorBody = new t.UnionType<
  [typeof DebtCalculatorByPayment, typeof DebtCalculatorByMonths],
  t.TypeOf<typeof EitherDirection>,
  unknown,
  unknown
>(
  'DebtCalculatorBody',
  EitherDirection.is,
  (u, c) => {
    if (typeof u !== 'object' || u === null || Array.isArray(u)) return EitherDirection.validate(u, c);
    const byMonths = 'months' in u;
    if (byMonths === 'monthly_payment' in u) return t.failure(u, c, EXACTLY_ONE);
    // Under the member's index, as io-ts's own union reports it (error paths skip union indexes).
    return byMonths
      ? DebtCalculatorByMonths.validate(u, t.appendContext(c, '1', DebtCalculatorByMonths, u))
      : DebtCalculatorByPayment.validate(u, t.appendContext(c, '0', DebtCalculatorByPayment, u));
  },
  EitherDirection.encode,
  EitherDirection.types,
);
export type DebtCalculatorBody = t.TypeOf<typeof DebtCalculatorBody>;

export const PingBody = strictObject('PingBody', { payload: boundedString(0, 1024, 'string(≤1024 chars)') });

/** A query-string integer: digits only, decoded to a number within bounds. */
export const QueryInt = (min: number, max: number) =>
  new t.Type<number, string, unknown>(
    `integer(${min}..${max})`,
    (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= min && u <= max,
    (u, c) => {
      if (typeof u !== 'string' || !/^[0-9]{1,16}$/.test(u)) return t.failure(u, c, `must be an integer ${min}..${max}`);
      const n = Number(u);
      return Number.isSafeInteger(n) && n >= min && n <= max ? t.success(n) : t.failure(u, c, `must be an integer ${min}..${max}`);
    },
    String,
  );

/** An id in a query string: digits without a leading zero, at most 2^53−1, checked by `is` (`Id`'s, or an id kind's). */
const queryIdCodec = <A extends Id>(is: (u: unknown) => u is A): t.Type<A, string, unknown> =>
  new t.Type<A, string, unknown>(
    'Id',
    is,
    (u, c) => {
      const n = typeof u === 'string' && /^[1-9][0-9]{0,15}$/.test(u) ? Number(u) : Number.NaN;
      return is(n) ? t.success(n) : t.failure(u, c, 'must be a positive integer id');
    },
    String,
  );
/** An id of no kind in a query string: a page cursor (`starting_after`), compared by number only. */
export const QueryId: t.Type<Id, string, unknown> = queryIdCodec(Id.is);
/** An id of one kind in a query string (`user_id` of the events list): `QueryId`, decoding to that kind. */
export const queryIdOf = <K extends IdKind>(kind: K): t.Type<IdOf<K>, string, unknown> => queryIdCodec(ID_CODECS[kind].is);

export const pageFields = { limit: QueryInt(1, 100), starting_after: QueryId };
export const PageQuery = strictObject('PageQuery', {}, pageFields);
/** A page of a plan's schedule: `limit` months (1..120) after month `starting_after` (0..600; 0, the default, is before the first). */
export const PaymentPlanScheduleQuery = strictObject(
  'PaymentPlanScheduleQuery',
  {},
  { limit: QueryInt(1, 120), starting_after: QueryInt(0, 600) },
);
export type PaymentPlanScheduleQuery = t.TypeOf<typeof PaymentPlanScheduleQuery>;
export type PageQuery = t.TypeOf<typeof PageQuery>;
/**
 * The credit score history's query (docs/decisions/payoff-and-outlook.md, docs/decisions/tenancy.md): newest first, so
 * `starting_after` (the last id of the previous page) asks for the scores
 * older than it. No count limit: the history ends early only by size.
 */
export const CreditScoreHistoryQuery = strictObject('CreditScoreHistoryQuery', {}, { starting_after: QueryId });
export type CreditScoreHistoryQuery = t.TypeOf<typeof CreditScoreHistoryQuery>;
export const AccountListQuery = strictObject('AccountListQuery', {}, { ...pageFields, type: AccountType, status: AccountStatus });
export type AccountListQuery = t.TypeOf<typeof AccountListQuery>;
export const ArticleListQuery = strictObject('ArticleListQuery', {}, { ...pageFields, category: Category });
export type ArticleListQuery = t.TypeOf<typeof ArticleListQuery>;
export const LearningModulesQuery = strictObject('LearningModulesQuery', {}, { category: Category });
export type LearningModulesQuery = t.TypeOf<typeof LearningModulesQuery>;

export const DEFAULT_PAGE_LIMIT = 20;

/** `POST /api/users/{id}/sandbox/advance` (docs/sandbox-over-time.md): 1 to 12 months a call; `payment_plan_id` with `payments: "plan"` only. */
export const SandboxAdvanceBody = strictObject(
  'SandboxAdvanceBody',
  { months: boundedInt(1, MAX_ADVANCE_MONTHS), payments: SandboxPayments },
  { payment_plan_id: PaymentPlanId },
);
export type SandboxAdvanceBody = t.TypeOf<typeof SandboxAdvanceBody>;
