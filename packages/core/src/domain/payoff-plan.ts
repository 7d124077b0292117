/**
 * Debt payoff planning (DESIGN 7.6).
 * NOTE(owner: payoff work): implement the month loop, plans and the calculator.
 */
import type { Cents, IsoDate } from './primitives.js';

export interface MinimumOnlyInput {
  readonly balance: Cents;
  readonly apr: number;
  readonly minimumPayment: Cents;
}

/** The date the balance reaches 0 paying only the minimum, or null (DESIGN 7.2). */
export const expectedPayoffDate = (_input: MinimumOnlyInput, _today: IsoDate): IsoDate | null => null;
