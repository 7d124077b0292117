/**
 * Monthly payment status codes (docs/api/reference.md) and what the credit report needs to
 * know about them: which months are rated, on time, late or derogatory.
 */
import * as t from 'io-ts';

export const PaymentCode = t.keyof(
  {
    '0': null,
    '1': null,
    '2': null,
    '3': null,
    '4': null,
    '5': null,
    '6': null,
    '7': null,
    '8': null,
    '9': null,
    E: null,
    '*': null,
    '': null,
  },
  'PaymentCode',
);
export type PaymentCode = t.TypeOf<typeof PaymentCode>;

/** The payment status codes table (docs/api/reference.md): each code and its meaning. */
export const PAYMENT_CODE_MEANINGS: Readonly<Record<PaymentCode, string>> = {
  '0': 'Account too new to rate, or approved but not yet used',
  '1': 'Payments made on time',
  '2': 'Two or fewer payments past due',
  '3': 'Three or fewer payments past due',
  '4': 'Four or fewer payments past due',
  '5': 'More than four payments past due, or at least one payment more than 120 days past due',
  '6': 'Account is with collections (enhanced trade only)',
  '7': 'Included in Chapter 13',
  '8': 'Repossession',
  '9': 'Charge-off',
  E: 'Zero balance or current',
  '*': 'Payment status not available',
  '': 'Not reported',
};

/** A history holds at most 24 months (docs/api/reference.md). */
export const MAX_PAYMENTS_HISTORY_LENGTH = 24;

/** Whether a history is within the 24-month limit. */
export const isValidHistoryLength = (history: ReadonlyArray<unknown>): boolean => history.length <= MAX_PAYMENTS_HISTORY_LENGTH;

/** A month says something about the payer, i.e. it is not `0`, `*` or empty (docs/decisions/payoff-and-outlook.md). */
export const isRated = (code: PaymentCode): boolean => code !== '0' && code !== '*' && code !== '';

/** Paid on time: `1`, or `E` (zero balance or current). */
export const isOnTime = (code: PaymentCode): boolean => code === '1' || code === 'E';

const LATE: ReadonlySet<PaymentCode> = new Set<PaymentCode>(['2', '3', '4', '5', '6', '7', '8', '9']);
const DEROGATORY: ReadonlySet<PaymentCode> = new Set<PaymentCode>(['6', '7', '8', '9']);

/** Past due or worse: `2` to `9`. */
export const isLate = (code: PaymentCode): boolean => LATE.has(code);

/** Collections, Chapter 13, repossession or charge-off: `6` to `9`. */
export const isDerogatory = (code: PaymentCode): boolean => DEROGATORY.has(code);

/** Number of rated months. */
export const ratedCount = (history: ReadonlyArray<PaymentCode>): number => history.filter(isRated).length;

/** Number of on-time months. */
export const onTimeCount = (history: ReadonlyArray<PaymentCode>): number => history.filter(isOnTime).length;

/**
 * Percent of rated months paid on time (unrounded), or `null` when no month is rated.
 * @example onTimePercentage(['1', '2', '*', 'E']) === 200 / 3 // 66.66…: 2 on time of 3 rated
 */
export const onTimePercentage = (history: ReadonlyArray<PaymentCode>): number | null => {
  const rated = ratedCount(history);
  return rated === 0 ? null : (100 * onTimeCount(history)) / rated;
};

/** Whether any month is derogatory. */
export const hasDerogatory = (history: ReadonlyArray<PaymentCode>): boolean => history.some(isDerogatory);
