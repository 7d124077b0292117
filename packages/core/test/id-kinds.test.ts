/**
 * A brand per id kind (shared/primitives.ts, docs/decisions/ids.md): a swapped
 * pair of ids does not compile, and neither does an id of no kind where one of
 * a kind is expected. The checks are the `@ts-expect-error` lines below: the
 * build fails if any of them compiles (an unused `@ts-expect-error` is an
 * error), so this file fails to build the day the kinds stop being distinct or
 * the kind becomes optional again.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { AccountId, ClientId, Id, PaymentPlanId, UserId } from '../src/shared/primitives.js';
import { idOf } from '../src/shared/constructors.js';
import type { UserRecord } from '../src/users/user.js';
import type { PaymentPlanRecord } from '../src/payment-plans/payment-plan.js';
import type { PaymentPlanRepository } from '../src/payment-plans/payment-plan-repository.js';
import type { UserScope } from '../src/shared/deps.js';

/** Never run: what matters is what compiles. */
const calls = (plans: PaymentPlanRepository, scope: UserScope, user: UserRecord, plan: PaymentPlanRecord, raw: Id) => [
  plans.touchOwned(scope.clientId, scope.userId, plan.id),
  plans.touchOwned(user.client_id, user.id, plan.id),
  // @ts-expect-error an id of no kind (a number just checked by `Id`) is not a client id: it gets its kind from a codec or `idOf`
  plans.touchOwned(raw, scope.userId, plan.id),
  // @ts-expect-error ... nor a user id
  plans.touchOwned(scope.clientId, raw, plan.id),
  // @ts-expect-error ... nor a plan id
  plans.touchOwned(scope.clientId, scope.userId, raw),
  // The named constructor and the kinded codecs give an id its kind.
  plans.touchOwned(idOf('client', raw), idOf('user', 7), idOf('payment_plan', 9)),
  E.map((planId: PaymentPlanId) => plans.touchOwned(scope.clientId, scope.userId, planId))(PaymentPlanId.decode(raw)),
  // @ts-expect-error the constructor's kind is checked too
  plans.touchOwned(idOf('user', 1), scope.userId, plan.id),
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

  it('idOf gives a number its kind and nothing else: the same number, or a RangeError naming the kind', () => {
    const user: UserId = idOf('user', 7);
    expect(user).to.equal(7);
    expect(() => idOf('user', 0)).to.throw(RangeError, 'user id: expected a positive integer id, got 0');
    expect(() => idOf('account', 1.5)).to.throw(RangeError, 'account id');
  });
});
