/**
 * This feature's object mothers (testing/record-mothers.ts has the kernel's): valid records for its
 * storage ports, every field present (absent values `null`, as stored); overrides replace whole fields.
 */
import type { UserId } from '../shared/primitives.js';
import type { NewCreditScore } from './credit-score-repository.js';
import { CREATED_AT, TODAY } from '../testing/record-mothers.js';

/** A credit score whose factors agree with their amounts (docs/api/reference.md). */
export const aCreditScore = (userId: UserId, overrides: Partial<NewCreditScore> = {}): NewCreditScore => ({
  user_id: userId,
  date: TODAY,
  last_name: 'Lovelace',
  score: 742,
  increase: 0,
  payment_history: { amount: 95.5, factor: 'Good' },
  credit_utilization: { amount: 42.25, factor: 'Poor' },
  derogatory_marks: { amount: 0, factor: 'Good' },
  credit_age: { amount: 6.33, factor: 'Good' },
  credit_mix: { amount: 2, factor: 'Poor' },
  new_credit: { amount: 1, factor: 'Good' },
  created_at: CREATED_AT,
  ...overrides,
});
