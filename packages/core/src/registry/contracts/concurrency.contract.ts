/**
 * The concurrency rules of docs/decisions/transactions.md, proved through the use cases on
 * one store adapter: the races a hostile client runs (issue "money must add
 * up"), each with its exact expected outcome, and the write-skew pairs (a
 * delete against a creation under it) with forced interleaving. Run it on a store with forced interleaving
 * (`interleavingStore`) so the memory store cannot pass by accident, and on
 * mongo through the real driver. Every case fails on a last-writer-wins store.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { unavailable, type DomainError, type Unavailable } from '../../shared/errors.js';
import type { Clock } from '../../shared/clock.js';
import type { CreditBureau } from '../../bureau/credit-bureau.js';
import { mapStorePorts, type StorePortKey, type TransactionPorts } from '../../shared/store-ports.js';
import { type StorePorts } from '../../shared/unit-of-work.js';
import { mapUnitOfWork } from '../../shared/unit-of-work.js';
import { createApplication } from '../../application.js';
import { Turns } from '../../shared/transactions.js';
import type { UserScope } from '../../shared/deps.js';
import { StoreContractOptions, StoreFactory, expectRight, run, useFreshStore } from '../../testing/contract-harness.js';
import { aClient } from '../../clients/record-mothers.js';
import { aSegmentedCard, anAccount } from '../../accounts/record-mothers.js';
import { aUser } from '../../users/record-mothers.js';
import { anId, cents } from '../../testing/record-mothers.js';
import { sequentialSecrets } from '../../testing/test-secrets.js';
import { demoSeedConcurrencyContract } from '../../demo/demo-seed.contract.js';
import { quotaConcurrencyContract } from './quotas.contract.js';

const clock: Clock = { now: () => new Date('2024-07-01T12:00:00.000Z') };

/** None of these races reaches the bureau: any call is a test failure. */
const noBureau: CreditBureau = {
  invoke: () => TE.left(unavailable('no bureau in the concurrency contract')),
  verifyOtp: () => TE.left(unavailable('no bureau in the concurrency contract')),
  verifyIdentity: () => TE.left(unavailable('no bureau in the concurrency contract')),
  deleteIdentity: () => TE.left(unavailable('no bureau in the concurrency contract')),
  fetchReport: () => TE.left(unavailable('no bureau in the concurrency contract')),
};

const appDeps = (store: StorePorts) => ({ ...store, clock, bureau: noBureau, secrets: sequentialSecrets() });
const appOn = (store: StorePorts) => createApplication(appDeps(store));

/** Every settled result is a Right or a Left with one of `tags`. */
const expectOnly = (results: ReadonlyArray<E.Either<DomainError, unknown>>, tags: ReadonlyArray<string>): void => {
  for (const r of results) if (E.isLeft(r)) expect(tags, JSON.stringify(r.left)).to.include(r.left._tag);
};

/**
 * `port` whose method `name` waits for `gate` before it runs (one write held
 * back until the test lets it go); `reached()` is called when a call arrives.
 */
const holdBack = <P extends object>(port: P, name: keyof P, gate: Promise<void>, reached: () => void = () => undefined): P =>
  new Proxy(port, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== name || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const task = (value as (...a: unknown[]) => TE.TaskEither<DomainError, unknown>).apply(target, args);
        return async () => {
          reached();
          await gate;
          return task();
        };
      };
    },
  });

/**
 * `store` whose transactions hand out ports with the listed methods held back
 * (see `holdBack`): a transaction is stopped between its reads and its writes.
 */
const holdingIn = (
  store: StorePorts,
  holds: ReadonlyArray<readonly [StorePortKey, string]>,
  gate: Promise<void>,
  reached: () => void,
): StorePorts => {
  const held = (ports: TransactionPorts): TransactionPorts =>
    mapStorePorts(ports, (key, port) => {
      const hold = holds.find(([k]) => k === key);
      return hold === undefined ? port : holdBack(port, hold[1] as keyof typeof port, gate, reached);
    });
  return {
    ...store,
    unitOfWork: mapUnitOfWork(store.unitOfWork, held),
  };
};

const opened = (): { gate: Promise<void>; open: () => void } => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { gate, open };
};

/**
 * `store` as another API process sees it: the same records, but none of this
 * process's turns (docs/decisions/transactions.md: a turn orders the changes of one process; those
 * of other processes meet as write conflicts). The write-skew races below are
 * between processes: within one, the turn would order them, and a held
 * transaction would keep the interfering change waiting for good.
 */
const anotherProcess = (store: StorePorts): StorePorts => ({
  ...store,
  unitOfWork: {
    run: (work) => store.unitOfWork.run(work),
  },
});

/** `store` as a second API process sees it: the same records, and turns of its own (its changes queue among themselves only). */
const secondProcess = (store: StorePorts): StorePorts => {
  const turns = new Turns((callback, ms) => {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  });
  const inTurn =
    <A, Err>(turn: string | undefined, task: TE.TaskEither<Err, A>): TE.TaskEither<Err | Unavailable, A> =>
    async () => {
      if (turn === undefined) return task();
      const taken = await turns.take(turn, 30_000);
      if (taken._tag !== 'granted') return E.left(unavailable(`turn ${taken._tag}`));
      try {
        return await task();
      } finally {
        taken.turn.release(false);
      }
    };
  return {
    ...store,
    unitOfWork: {
      run: (work, options) => inTurn(options?.turn, store.unitOfWork.run(work)),
    },
  };
};

const rights = (results: ReadonlyArray<E.Either<DomainError, unknown>>): number => results.filter(E.isRight).length;

export function concurrencyContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} concurrency contract (docs/decisions/transactions.md)`, function () {
    this.timeout(30_000);
    const store = useFreshStore(makeStore, opts);

    const aUserWithLoan = async (balance: number) => {
      const client = await expectRight(store().clients.create(aClient()));
      const user = await expectRight(store().users.create(aUser(client.id)));
      const account = await expectRight(store().accounts.create(anAccount(user.id, { balance: cents(balance) })));
      const scope: UserScope = { clientId: client.id, userId: user.id };
      const plan = await expectRight(appOn(store()).createPaymentPlan(scope, { strategy: 'avalanche', monthly_payment: cents(50_000) }));
      return { scope, account, plan };
    };

    // 20, not 100 (the HTTP suite's hot-records test sends 100): within the store's 10 s deadline even on a loaded test machine.
    it('20 concurrent payments of 100 cents on one account all commit, in some order: the balance drops by exactly their sum, each with its record', async () => {
      const app = appOn(store());
      const { scope, account, plan } = await aUserWithLoan(1_000_000);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => run(app.recordPlanPayment(scope, plan.id, { account_id: account.id, amount: cents(100) }))),
      );
      // Each payment is a transaction on the same plan and account: in one process they take the user's turn one after the other (docs/decisions/transactions.md, hot records).
      expectOnly(results, []);
      expect(rights(results)).to.equal(20);
      expect((await expectRight(app.getAccount(scope, account.id))).balance).to.equal(1_000_000 - 20 * 100);
      const payments = await expectRight(app.listPlanPayments(scope, plan.id, { limit: 100 }));
      expect(payments.items).to.have.length(20);
      expect(payments.hasMore).to.equal(false);
    });

    it('20 concurrent payments from two processes (each with its own turns) all commit with exact money: the losers back off until they win', async () => {
      const { scope, account, plan } = await aUserWithLoan(1_000_000);
      const apps = [appOn(store()), appOn(secondProcess(store()))];
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          run(apps[i % 2]!.recordPlanPayment(scope, plan.id, { account_id: account.id, amount: cents(100) })),
        ),
      );
      expectOnly(results, []);
      expect(rights(results)).to.equal(20);
      expect((await expectRight(apps[0]!.getAccount(scope, account.id))).balance).to.equal(1_000_000 - 20 * 100);
    });

    it("20 concurrent payments on a card with rate segments from two processes (docs/decisions/payoff-and-outlook.md): exact money, allocated, balance the segments' sum", async () => {
      const client = await expectRight(store().clients.create(aClient()));
      const user = await expectRight(store().users.create(aUser(client.id)));
      const card = await expectRight(store().accounts.create(aSegmentedCard(user.id)));
      const scope: UserScope = { clientId: client.id, userId: user.id };
      const apps = [appOn(store()), appOn(secondProcess(store()))];
      const plan = await expectRight(apps[0]!.createPaymentPlan(scope, { strategy: 'avalanche', monthly_payment: cents(50_000) }));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          run(apps[i % 2]!.recordPlanPayment(scope, plan.id, { account_id: card.id, amount: cents(30_000) })),
        ),
      );
      expectOnly(results, []);
      expect(rights(results)).to.equal(20);
      const after = await expectRight(apps[0]!.getAccount(scope, card.id));
      expect(after.balance).to.equal(1_000_000 - 20 * 30_000);
      expect(after.apr_segments!.reduce((sum, s) => sum + s.balance, 0)).to.equal(after.balance);
      // Each $300 is above the minimum (1% of the balance plus interest): the minimum part to the 0% transfer, the excess to the 24% purchases.
      expect(after.apr_segments![0]!.balance).to.be.lessThan(600_000);
      expect(after.apr_segments![1]!.balance).to.be.lessThan(400_000);
    });

    it('payments racing past the balance stop at exactly 0', async () => {
      const app = appOn(store());
      const { scope, account, plan } = await aUserWithLoan(550);
      // One after another until six are accepted: concurrent ones may answer 409 (hot record), never lose an update.
      let accepted = 0;
      while (accepted < 6) {
        const results = await Promise.all(
          Array.from({ length: 10 }, () => run(app.recordPlanPayment(scope, plan.id, { account_id: account.id, amount: cents(100) }))),
        );
        expectOnly(results, ['conflict']);
        accepted += rights(results);
      }
      expect((await expectRight(app.getAccount(scope, account.id))).balance).to.equal(0);
    });

    it('a close racing an edit: the account ends closed, whichever runs first (20 rounds)', async () => {
      const app = appOn(store());
      const { scope } = await aUserWithLoan(10_000);
      for (let round = 0; round < 20; round++) {
        const account = await expectRight(store().accounts.create(anAccount(scope.userId)));
        const edit = () => run(app.updateAccount(scope, account.id, { nickname: `round ${round}` }));
        const close = () => run(app.updateAccount(scope, account.id, { status: 'closed' }));
        // Alternate which one starts first.
        const [edited, closed] =
          round % 2 === 0 ? await Promise.all([edit(), close()]) : await Promise.all([close(), edit()]).then(([c, e]) => [e, c] as const);
        expectOnly([edited!, closed!], ['conflict']);
        expect(E.isRight(closed!) || E.isRight(edited!)).to.equal(true);
        const stored = await expectRight(app.getAccount(scope, account.id));
        if (E.isRight(closed!)) {
          expect(stored.status, `round ${round}`).to.equal('closed');
          expect(stored.closed_at).to.equal('2024-07-01');
        }
        if (E.isRight(edited!)) expect(stored.nickname).to.equal(`round ${round}`);
      }
    });

    it('payments racing the DELETE of their plan: nothing of the plan remains; a payment either counted (201) or answered 404', async () => {
      const app = appOn(store());
      const { scope, account, plan } = await aUserWithLoan(1_000_000);
      const payments = Array.from({ length: 20 }, () =>
        run(app.recordPlanPayment(scope, plan.id, { account_id: account.id, amount: cents(100) })),
      );
      const deleted = run(app.deletePaymentPlan(scope, plan.id));
      const results = await Promise.all(payments);
      // The delete may lose to the payments (409); repeated alone, it goes through.
      const first = await deleted;
      expectOnly([first], ['conflict']);
      if (E.isLeft(first)) expect(E.isRight(await run(app.deletePaymentPlan(scope, plan.id)))).to.equal(true);
      expectOnly(results, ['not_found', 'conflict']);
      expect(await expectRight(store().planPayments.deleteAllForPlan(scope.userId, plan.id)), 'orphan payments').to.equal(0);
      expect(await expectRight(store().paymentPlans.list(scope.userId, { limit: 10 }))).to.deep.equal({ items: [], hasMore: false });
      // Counted payments happened before the delete; the others changed nothing.
      expect((await expectRight(app.getAccount(scope, account.id))).balance).to.equal(1_000_000 - 100 * rights(results));
    });

    it('DELETE of a user racing plan, payment and account creation leaves nothing of the user; losers answered 404', async () => {
      const app = appOn(store());
      const { scope, account, plan } = await aUserWithLoan(1_000_000);
      const creations = [
        ...Array.from({ length: 5 }, () =>
          run(app.createPaymentPlan(scope, { strategy: 'snowball', monthly_payment: cents(50_000), account_ids: [account.id] })),
        ),
        ...Array.from({ length: 20 }, () => run(app.recordPlanPayment(scope, plan.id, { account_id: account.id, amount: cents(100) }))),
        ...Array.from({ length: 5 }, () =>
          run(app.linkAccount(scope, { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: cents(1_000) })),
        ),
      ];
      const deleted = run(app.deleteUser(scope));
      const results = await Promise.all(creations);
      // The delete may lose to the creations (409); repeated alone, it goes through and takes what they made.
      const first = await deleted;
      expectOnly([first], ['conflict']);
      if (E.isLeft(first)) expect(E.isRight(await run(app.deleteUser(scope)))).to.equal(true);
      expectOnly(results, ['not_found', 'conflict']);
      const s = store();
      expect(await expectRight(s.planPayments.deleteAllForUser(scope.userId)), 'orphan payments').to.equal(0);
      expect(await expectRight(s.paymentPlans.deleteAllForUser(scope.userId)), 'orphan plans').to.equal(0);
      expect(await expectRight(s.accounts.deleteAllForUser(scope.userId)), 'orphan accounts').to.equal(0);
      expect(await expectRight(s.users.get(scope.clientId, scope.userId))).to.deep.equal({ _tag: 'None' });
      const gone = await run(app.getUser(scope));
      expect(E.isLeft(gone) && gone.left._tag).to.equal('not_found');
    });

    it("a creation that starts after the user's DELETE answers 404 and leaves nothing; a repeated DELETE is 404", async () => {
      const app = appOn(store());
      const { scope, account, plan } = await aUserWithLoan(1_000_000);
      expect(E.isRight(await run(app.deleteUser(scope)))).to.equal(true);
      const results = await Promise.all([
        run(app.recordPlanPayment(scope, plan.id, { account_id: account.id, amount: cents(100) })),
        run(app.linkAccount(scope, { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: cents(1_000) })),
        run(app.deleteUser(scope)),
      ]);
      for (const r of results) expect(E.isLeft(r) && r.left._tag).to.equal('not_found');
      expect(await expectRight(store().accounts.listAll(scope.userId))).to.deep.equal([]);
      expect(await expectRight(store().planPayments.deleteAllForUser(anId('user', scope.userId)))).to.equal(0);
    });

    it("no write skew: a payment whose transaction began before the plan's DELETE committed conflicts or misses the plan, and answers 404; no record, balance unchanged", async () => {
      const { scope, account, plan } = await aUserWithLoan(1_000_000);
      const { gate, open } = opened();
      const arrived = opened();
      const held = appDeps(holdingIn(anotherProcess(store()), [['paymentPlans', 'touchOwned']], gate, arrived.open));
      const payment = run(createApplication(held).recordPlanPayment(scope, plan.id, { account_id: account.id, amount: cents(100) }));
      // The payment's transaction has begun (on memory: its snapshot) and is about to read and bump its plan, one step
      // (a read with no write of its plan cannot happen), when the delete runs and commits.
      await arrived.gate;
      expect(E.isRight(await run(appOn(store()).deletePaymentPlan(scope, plan.id)))).to.equal(true);
      open();
      const result = await payment;
      expect(E.isLeft(result) && result.left._tag).to.equal('not_found');
      expect(await expectRight(store().planPayments.deleteAllForPlan(scope.userId, plan.id)), 'orphan payments').to.equal(0);
      expect((await expectRight(appOn(store()).getAccount(scope, account.id))).balance).to.equal(1_000_000);
    });

    it("no write skew: an account, plan or payment whose transaction read the user before the user's DELETE committed conflicts, runs again, and answers 404; nothing left", async () => {
      const { scope, account, plan } = await aUserWithLoan(1_000_000);
      const { gate, open } = opened();
      const s = store();
      let arrivals = 0;
      const allArrived = opened();
      const arrived = () => void (++arrivals === 3 && allArrived.open());
      // Three other processes (one change each): turn-less, so all three reach their owner write together.
      const held = createApplication(
        appDeps(
          holdingIn(
            anotherProcess(s),
            [
              ['users', 'touchAndGet'],
              ['paymentPlans', 'touchOwned'],
            ],
            gate,
            arrived,
          ),
        ),
      );
      const creations = [
        run(held.linkAccount(scope, { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: cents(1_000) })),
        run(held.createPaymentPlan(scope, { strategy: 'snowball', monthly_payment: cents(50_000), account_ids: [account.id] })),
        run(held.recordPlanPayment(scope, plan.id, { account_id: account.id, amount: cents(100) })),
      ];
      // Each creation's transaction has read the user (its snapshot) and is about to write its owner when the delete runs and commits.
      await allArrived.gate;
      expect(E.isRight(await run(appOn(s).deleteUser(scope)))).to.equal(true);
      open();
      for (const r of await Promise.all(creations)) expect(E.isLeft(r) && r.left._tag).to.equal('not_found');
      expect(await expectRight(s.planPayments.deleteAllForUser(scope.userId)), 'orphan payments').to.equal(0);
      expect(await expectRight(s.paymentPlans.deleteAllForUser(scope.userId)), 'orphan plans').to.equal(0);
      expect(await expectRight(s.accounts.deleteAllForUser(scope.userId)), 'orphan accounts').to.equal(0);
    });
  });
  demoSeedConcurrencyContract(name, makeStore, opts);
  quotaConcurrencyContract(name, makeStore, opts);
}
