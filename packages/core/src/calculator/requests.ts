/**
 * The calculator feature's request codecs (DebtCalculatorBody): what its operations accept, the single source
 * of truth the HTTP adapter decodes with and the OpenAPI document is generated from (shared/requests.ts holds
 * the kernel's shared pieces: page fields, query integers and ids). Objects are strict: unknown fields are rejected.
 */
import * as t from 'io-ts';
import { boundedInt, strictObject } from '../shared/codec.js';
import { PositiveCents } from '../shared/request-fields.js';
import { Apr } from '../accounts/account.js';

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
