/** Test data for the payoff planner's tests: branded values and debts from plain numbers. */
import type { PayoffDebt } from '../src/payment-plans/payoff-plan.js';
import type { Cents, IsoDate } from '../src/shared/primitives.js';
import { idOf } from '../src/shared/constructors.js';

export const cents = (n: number): Cents => n as Cents;
export const date = (s: string): IsoDate => s as IsoDate;

/** A debt to plan: its id, balance and minimum payment in cents, APR in percent. */
export const debt = (id: number, balance: number, apr: number, minimumPayment: number): PayoffDebt => ({
  id: idOf('account', id),
  balance: cents(balance),
  apr,
  minimumPayment: cents(minimumPayment),
});
