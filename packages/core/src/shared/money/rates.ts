/**
 * Interest arithmetic of the money engine (docs/decisions/payoff-and-outlook.md), in integer cents.
 *
 * - `monthly`: round-half-up(balance × APR / 1200), exact on integers (docs/decisions/payoff-and-outlook.md).
 * - `daily_simple`: round-half-up(balance × APR / 36500 × days), exact on integers
 *   (simple interest on the principal, the usual note of an installment loan:
 *   Regulation Z §1026.17(c)(1) and §1026.22 compute the APR on the actual days).
 * - `daily_compound`: round-half-up(balance × ((1 + APR / 36500)^days − 1)), the
 *   closed form of a daily periodic rate compounded over the days between two
 *   postings (Regulation Z §1026.7(b)(4), §1026.14(c)(1) daily periodic rate),
 *   never a loop over days.
 */

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_APR_DECIMALS = 6;

/**
 * An APR as an exact fraction `units / scale` percent, so interest is computed
 * on integers only. `units` is the APR written with the fewest decimals (up to
 * 6) whose value as a double is exactly `apr`: the JSON number 19.99 becomes
 * 1999 / 100, never 19.989999999999998. An APR with more than 6 decimals is
 * rounded to 6 (a millionth of a percent is far below a cent on any balance).
 */
export interface ScaledApr {
  readonly units: number;
  /** 10^decimals. */
  readonly scale: number;
}

export const scaleApr = (apr: number): ScaledApr => {
  let scale = 1;
  for (let decimals = 0; decimals < MAX_APR_DECIMALS; decimals++) {
    const units = Math.round(apr * scale);
    // Division of two exact doubles is correctly rounded, so equality means
    // `apr` is the double nearest to the decimal units/scale.
    if (units / scale === apr) return { units, scale };
    scale *= 10;
  }
  return { units: Math.round(apr * scale), scale };
};

/**
 * round-half-up(balance × units / denominator) for an even denominator, exact
 * for any safe integer balance: plain doubles while the numerator is a safe
 * integer (the usual case), BigInt beyond.
 */
export const roundedQuotient = (balance: number, units: number, denominator: number): number => {
  const half = denominator / 2;
  const product = balance * units;
  if (product < MAX_SAFE - half) {
    const x = product + half;
    let q = Math.floor(x / denominator);
    // The float quotient can be one off near an integer; fix it by remainder.
    const r = x - q * denominator;
    if (r < 0) q -= 1;
    else if (r >= denominator) q += 1;
    return q;
  }
  return Number((BigInt(balance) * BigInt(units) + BigInt(half)) / BigInt(denominator));
};

/**
 * One month of interest on a balance at `apr` percent: round-half-up(balance × apr / 1200).
 * @example monthlyInterestOf(1_000_000, 20) === 16_667 // $166.666… → $166.67
 */
export const monthlyInterestOf = (balance: number, apr: number): number => {
  const { units, scale } = scaleApr(apr);
  return roundedQuotient(balance, units, 1200 * scale);
};

/**
 * Simple daily interest over `days` days: round-half-up(balance × apr / 36500 × days).
 * @example dailySimpleInterestOf(1_000_000, 7.3, 30) === 6_000
 */
export const dailySimpleInterestOf = (balance: number, apr: number, days: number): number => {
  const { units, scale } = scaleApr(apr);
  return roundedQuotient(balance, units * days, 36_500 * scale);
};

/**
 * The growth factor of a daily periodic rate compounded over `days` days:
 * (1 + apr / 36500)^days − 1, computed as expm1(days × log1p(r)) so that it is
 * precise for small rates.
 */
export const dailyCompoundFactor = (apr: number, days: number): number => Math.expm1(days * Math.log1p(apr / 36_500));

/**
 * Interest compounded daily over `days` days, rounded half up to the cent.
 * @example dailyCompoundInterestOf(500_000, 24, 30) === 9_966
 */
export const dailyCompoundInterestOf = (balance: number, apr: number, days: number): number =>
  Math.floor(balance * dailyCompoundFactor(apr, days) + 0.5);

/** Days in each month of the equal-months mode: 365/12 (Regulation Z Appendix M1 (b)(4)). */
export const EQUAL_MONTH_DAYS = 365 / 12;
