/**
 * A brand per id kind (domain/primitives.ts): a swapped pair of ids does not
 * compile. The checks are the `@ts-expect-error` lines below: the build fails
 * if any of them compiles (an unused `@ts-expect-error` is an error), so this
 * file fails to build the day the kinds stop being distinct.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { AccountId, ClientId, Id, PaymentPlanId, UserId } from '../src/shared/primitives.js';
import type { UserRecord } from '../src/users/user.js';
import type { PaymentPlanRecord } from '../src/payment-plans/payment-plan.js';
import type { PaymentPlanRepository } from '../src/payment-plans/payment-plan-repository.js';
import type { UserScope } from '../src/shared/deps.js';

/** Never run: what matters is what compiles. */
const calls = (plans: PaymentPlanRepository, scope: UserScope, user: UserRecord, plan: PaymentPlanRecord, raw: Id) => [
  plans.touchOwned(scope.clientId, scope.userId, plan.id),
  plans.touchOwned(user.client_id, user.id, plan.id),
  // An id of no kind yet (a path parameter just decoded) is accepted as any kind.
  plans.touchOwned(raw, raw, raw),
  // @ts-expect-error a user id is not a client id (the pair swapped)
  plans.touchOwned(scope.userId, scope.clientId, plan.id),
  // @ts-expect-error a plan id is not a user id (the pair swapped)
  plans.touchOwned(scope.clientId, plan.id, scope.userId),
  // @ts-expect-error ids read from records keep their kind: a user's id is not its client's
  plans.touchOwned(user.id, user.client_id, plan.id),
  // @ts-expect-error an account id is not a plan id
  plans.touchOwned(scope.clientId, scope.userId, plan.account_ids[0] as AccountId),
];

describe('a brand per id kind', () => {
  it('swapped ids do not compile (the @ts-expect-error lines of this file); the kinded codecs decode as Id does', () => {
    expect(calls).to.be.a('function');
    for (const codec of [ClientId, UserId, AccountId, PaymentPlanId]) {
      expect(codec.decode(7)).to.deep.equal(E.right(7));
      expect(E.isLeft(codec.decode(0))).to.equal(true);
    }
  });
});
