/**
 * Validation messages name what is allowed (issue 13): the values of an enum,
 * the format of a date, and exactly one of the calculator's two directions.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import {
  Category,
  DebtCalculatorBody,
  LearningModulesQuery,
  LinkAccountBody,
  PlanPaymentBody,
  decode,
  describedAs,
  type ErrorDetail,
} from '../src/index.js';

const details = <A>(codec: t.Type<A, unknown, unknown>, input: unknown): ReadonlyArray<ErrorDetail> => {
  const result = decode(codec)(input);
  if (E.isRight(result)) throw new Error(`expected a validation error for ${JSON.stringify(input)}`);
  if (result.left._tag !== 'validation_error') throw new Error(`expected a validation error, got ${result.left._tag}`);
  return result.left.details ?? [];
};

describe('validation messages', () => {
  it('name the allowed values of an enum', () => {
    expect(details(LearningModulesQuery, { category: 'crypto' })).to.deep.equal([
      { path: 'category', message: `must be one of ${Object.keys(Category.keys).join(', ')}` },
    ]);
    expect(details(LearningModulesQuery, { category: 'crypto' })[0]!.message).to.match(/^must be one of career, college, /);
  });

  it('name the date format', () => {
    expect(details(PlanPaymentBody, { account_id: 1, amount: 100, date: '15/03/2026' })).to.deep.equal([
      { path: 'date', message: 'must be a YYYY-MM-DD date' },
    ]);
    // The same for a nullable date, and for one that does not exist.
    const account = { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 1 };
    expect(details(LinkAccountBody, { ...account, opened_at: '2023-02-30' })).to.deep.equal([
      { path: 'opened_at', message: 'must be a YYYY-MM-DD date' },
    ]);
  });

  it('name money and ids in words', () => {
    expect(details(PlanPaymentBody, { account_id: 0, amount: 1.5 })).to.deep.equal([
      { path: 'account_id', message: 'must be a positive integer id' },
      { path: 'amount', message: 'must be a positive whole number of cents' },
    ]);
  });

  it('say a missing field is required, in the same words', () => {
    expect(details(PlanPaymentBody, { amount: 100 })).to.deep.equal([
      { path: 'account_id', message: 'is required (a positive integer id)' },
    ]);
  });

  it('ask the calculator for exactly one of monthly_payment or months', () => {
    const both = { balance: 100_000, apr: 20, monthly_payment: 5_000, months: 12 };
    expect(details(DebtCalculatorBody, both)).to.deep.equal([
      { path: '(body)', message: 'must have exactly one of monthly_payment or months' },
    ]);
    expect(details(DebtCalculatorBody, { balance: 100_000, apr: 20 })).to.deep.equal([
      { path: '(body)', message: 'must have exactly one of monthly_payment or months' },
    ]);
  });

  it("give the calculator only the chosen direction's errors", () => {
    expect(details(DebtCalculatorBody, { balance: -1, apr: 20, months: 0 }).map((d) => d.path)).to.deep.equal(['balance', 'months']);
    expect(details(DebtCalculatorBody, { balance: 100, apr: 20, monthly_payment: 'x' }).map((d) => d.path)).to.deep.equal([
      'monthly_payment',
    ]);
    expect(details(DebtCalculatorBody, [1])).to.deep.equal([{ path: '(body)', message: 'must be a JSON object' }]);
    expect(E.isRight(DebtCalculatorBody.decode({ balance: 100, apr: 20, months: 3 }))).to.equal(true);
    expect(DebtCalculatorBody.is({ balance: 100, apr: 20, monthly_payment: 3 })).to.equal(true);
  });

  it('describedAs gives any codec its words', () => {
    const Even = describedAs(
      t.refinement(t.number, (n) => n % 2 === 0, 'Even'),
      'an even number',
    );
    expect(details(t.type({ n: Even }), { n: 3 })).to.deep.equal([{ path: 'n', message: 'must be an even number' }]);
  });
});
