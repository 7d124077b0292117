import { expect } from 'chai';
import {
  CURRENT_VERSION,
  ResponseKind,
  VersionChange,
  addField,
  makeVersioning,
  mapListItems,
  pipeTransforms,
  removeField,
  renameField,
  versioning,
  planScheduleContext,
} from '../src/registry/versioning/versions.js';
import * as E from 'fp-ts/lib/Either.js';

/** Freeze a body and everything inside it, so a transform that mutates throws. */
const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
};

// A test-only future release: credit_score.score became `value`, and accounts
// gained `currency` (the old shape had neither `value` nor `currency`).
const renameScore: VersionChange = {
  version: '2025-01-01',
  description: 'credit_score.score is renamed value',
  transforms: { credit_score: renameField('value', 'score') },
};
const addCurrency: VersionChange = {
  version: '2025-01-01',
  description: 'accounts carry currency',
  transforms: {
    account: removeField('currency'),
    account_list: mapListItems('accounts', removeField('currency')),
  },
};

const testRegistry = () =>
  makeVersioning([
    { version: '2025-01-01', changes: [renameScore, addCurrency] },
    { version: '2024-07-01', changes: [] },
  ]);

const latestScore = () => ({ id: 1, date: '2025-02-01', value: 712, increase: 4 });
const latestAccount = () => ({ id: 7, name: 'Visa', balance: 120_00, currency: 'USD' });

describe('versioning', () => {
  describe('the production registry', () => {
    it('has two versions, 2024-07-01 and 2026-11-26, the latest current', () => {
      expect(CURRENT_VERSION).to.equal('2026-11-26');
      expect(versioning.latest).to.equal(CURRENT_VERSION);
      expect(versioning.known).to.deep.equal(['2024-07-01', '2026-11-26']);
      expect(versioning.isKnown('2024-07-01')).to.equal(true);
      expect(
        versioning.releases.map((r) => r.version),
        'the changelog, newest first',
      ).to.deep.equal(['2026-11-26', '2024-07-01']);
      expect(versioning.releases[0]?.changes.length).to.be.at.least(2);
      for (const change of versioning.releases[0]?.changes ?? [])
        expect(change.description.length, change.description).to.be.greaterThan(80);
    });

    it('renders every response kind for the current version as the very same object', () => {
      for (const kind of Object.keys(ResponseKind.keys) as ResponseKind[]) {
        const body = { kind };
        expect(versioning.render(kind, body, CURRENT_VERSION), kind).to.equal(body);
      }
    });

    it('names all 32 response kinds', () => {
      expect(Object.keys(ResponseKind.keys)).to.have.members([
        'credit_score',
        'account',
        'account_list',
        'user',
        'user_list',
        'bureau_status',
        'bureau_step',
        'learning_modules',
        'payment_plan',
        'payment_plan_list',
        'payment_plan_schedule',
        'plan_payment',
        'plan_payment_list',
        'debt_calculation',
        'article',
        'article_list',
        'ping',
        'credit_score_history',
        'payment_plan_comparison',
        'payment_plan_progress',
        'credit_outlook',
        'event',
        'event_list',
        'webhook_endpoint',
        'webhook_endpoint_list',
        'webhook_delivery_list',
        'api_versions',
        'event_redelivery',
        'webhook_replay',
        'sandbox_advance',
        'repayment_disclosure',
        'payoff_quote',
      ]);
    });

    it('renders a plan for 2024-07-01 with its schedule from the render context, as the last field', () => {
      const schedule = [{ month: 1, date: '2026-12-26', payments: [] }];
      const plan = deepFreeze({ id: 7, strategy: 'avalanche', created_at: '2026-11-26T00:00:00.000Z' });
      const old = versioning.render(
        'payment_plan',
        plan,
        '2024-07-01',
        planScheduleContext([{ id: 7 as never, schedule: schedule as never }]),
      );
      expect(Object.keys(old as object)).to.deep.equal(['id', 'strategy', 'created_at', 'schedule']);
      expect((old as { schedule: unknown }).schedule).to.equal(schedule);
      const list = versioning.render(
        'payment_plan_list',
        { payment_plans: [plan], has_more: false },
        '2024-07-01',
        planScheduleContext([{ id: 7 as never, schedule: schedule as never }]),
      );
      expect(list).to.deep.equal({ payment_plans: [{ ...plan, schedule }], has_more: false });
      expect(() => versioning.render('payment_plan', plan, '2024-07-01'), 'no context: a loud bug, not a plan without schedule').to.throw(
        /render context/,
      );
      expect(versioning.render('payment_plan', plan, '2026-11-26')).to.equal(plan);
    });

    it('migrates a 2024-07-01 link request forward after validating it with its own codec', () => {
      const body = { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 100, apr: 19.5, minimum_payment: 2_500 };
      expect(versioning.migrateRequest('LinkAccountBody', body, '2024-07-01')).to.deep.equal(
        E.right({
          name: 'Card',
          type: 'loan',
          subtype: 'credit_card_loan',
          balance: 100,
          institution_apr: 19.5,
          institution_minimum_payment: 2_500,
        }),
      );
      const paths = (result: E.Either<{ _tag: string; details?: ReadonlyArray<{ path: string }> }, unknown>) =>
        E.isLeft(result) ? result.left.details?.map((d) => d.path) : result;
      expect(
        paths(versioning.migrateRequest('LinkAccountBody', { ...body, apr: 150, minimum_payment: -1 }, '2024-07-01')),
        'its own names',
      ).to.deep.equal(['apr', 'minimum_payment']);
      expect(
        paths(versioning.migrateRequest('LinkAccountBody', { ...body, institution_apr: 1 }, '2024-07-01')),
        'the new name is unknown in 2024-07-01',
      ).to.deep.equal(['institution_apr']);
      expect(versioning.migrateRequest('LinkAccountBody', body, '2026-11-26')).to.deep.equal(E.right(body));
      expect(versioning.migrateRequest('PatchAccountBody', body, '2024-07-01')).to.deep.equal(E.right(body));
      expect(versioning.codecAt('PaymentPlan', '2024-07-01')?.name).to.equal('PaymentPlan');
      expect(versioning.codecAt('PaymentPlan', '2026-11-26')).to.equal(undefined);
    });
  });

  describe('a registry with a newer release', () => {
    it('knows its releases oldest first, and the newest is latest', () => {
      const v = testRegistry();
      expect(v.known).to.deep.equal(['2024-07-01', '2025-01-01']);
      expect(v.latest).to.equal('2025-01-01');
    });

    it('renders the old shape for a 2024-07-01 request', () => {
      const v = testRegistry();
      expect(v.render('credit_score', latestScore(), '2024-07-01')).to.deep.equal({ id: 1, date: '2025-02-01', score: 712, increase: 4 });
      expect(v.render('account', latestAccount(), '2024-07-01')).to.deep.equal({ id: 7, name: 'Visa', balance: 120_00 });
      expect(v.render('account_list', { accounts: [latestAccount(), latestAccount()], has_more: false }, '2024-07-01')).to.deep.equal({
        accounts: [
          { id: 7, name: 'Visa', balance: 120_00 },
          { id: 7, name: 'Visa', balance: 120_00 },
        ],
        has_more: false,
      });
    });

    it('renders the latest shape, as the same object, for a latest request', () => {
      const v = testRegistry();
      const score = latestScore();
      const account = latestAccount();
      expect(v.render('credit_score', score, '2025-01-01')).to.equal(score);
      expect(v.render('account', account, '2025-01-01')).to.equal(account);
      expect(score).to.deep.equal(latestScore());
    });

    it('returns the same object for an older version when no change touches the kind', () => {
      const v = testRegistry();
      const user = { id: 3, last_name: 'Doe' };
      expect(v.render('user', user, '2024-07-01')).to.equal(user);
    });

    it('does not know versions that were never released, and refuses to render them', () => {
      const v = testRegistry();
      for (const version of ['2024-12-31', '2025-01-02', '2023-01-01', '', 'latest', '2024-7-1']) {
        expect(v.isKnown(version), version).to.equal(false);
        expect(() => v.render('credit_score', latestScore(), version), version).to.throw(/unknown API version/);
      }
      expect(v.isKnown('2024-07-01')).to.equal(true);
      expect(v.isKnown('2025-01-01')).to.equal(true);
    });

    it('does not mutate the body it renders', () => {
      const v = testRegistry();
      const score = deepFreeze(latestScore());
      const list = deepFreeze({ accounts: [latestAccount()], has_more: true });
      const oldScore = v.render('credit_score', score, '2024-07-01');
      const oldList = v.render('account_list', list, '2024-07-01');
      expect(score).to.deep.equal(latestScore());
      expect(list).to.deep.equal({ accounts: [latestAccount()], has_more: true });
      expect(oldScore).not.to.equal(score);
      expect(oldList).not.to.equal(list);
    });
  });

  describe('several releases', () => {
    // 2025-01-01 renamed score → value; 2025-06-01 renamed value → points,
    // dropped `increase`, then renamed points → pts. A 2024 client must see the
    // 2024 shape: releases, and changes within a release, are undone newest first.
    const v = makeVersioning([
      { version: '2024-07-01', changes: [] },
      { version: '2025-01-01', changes: [renameScore] },
      {
        version: '2025-06-01',
        changes: [
          {
            version: '2025-06-01',
            description: 'value is renamed points',
            transforms: { credit_score: renameField('points', 'value') },
          },
          {
            version: '2025-06-01',
            description: 'increase is removed',
            transforms: { credit_score: addField('increase', () => 0) },
          },
          {
            version: '2025-06-01',
            description: 'points is renamed pts',
            transforms: { credit_score: renameField('pts', 'points') },
          },
        ],
      },
    ]);
    const newest = () => ({ id: 1, pts: 700 });

    it('applies each newer change down to the requested version', () => {
      expect(v.render('credit_score', newest(), '2025-06-01')).to.deep.equal({ id: 1, pts: 700 });
      expect(v.render('credit_score', newest(), '2025-01-01')).to.deep.equal({ id: 1, value: 700, increase: 0 });
      expect(v.render('credit_score', newest(), '2024-07-01')).to.deep.equal({ id: 1, score: 700, increase: 0 });
    });
  });

  describe('registry validation at construction', () => {
    const change = (version: string, kind = 'credit_score'): VersionChange =>
      ({ version, description: 'test change', transforms: { [kind]: (b: unknown) => b } }) as VersionChange;

    it('rejects versions that are not YYYY-MM-DD dates', () => {
      for (const version of ['2024-7-01', '2024-07-01T00:00:00Z', '2024-02-30', '20240701', 'v1']) {
        expect(() => makeVersioning([{ version, changes: [] }]), version).to.throw(/not a YYYY-MM-DD date/);
      }
    });

    it('rejects a release listed twice', () => {
      expect(() =>
        makeVersioning([
          { version: '2024-07-01', changes: [] },
          { version: '2024-07-01', changes: [] },
        ]),
      ).to.throw(/listed twice/);
    });

    it('rejects no release at all', () => {
      expect(() => makeVersioning([])).to.throw(/at least one release/);
    });

    it('rejects a change filed under another release', () => {
      expect(() => makeVersioning([{ version: '2025-01-01', changes: [change('2024-07-01')] }])).to.throw(/filed under release 2025-01-01/);
    });

    it('rejects a transform for an unknown response kind', () => {
      expect(() => makeVersioning([{ version: '2025-01-01', changes: [change('2025-01-01', 'invoice')] }])).to.throw(
        /unknown response kind "invoice"/,
      );
    });
  });

  describe('field transforms', () => {
    it('pass bodies of another shape through untouched', () => {
      for (const body of [null, 3, 'x', [1, 2]]) {
        expect(renameField('a', 'b')(body, {})).to.equal(body);
        expect(removeField('a')(body, {})).to.equal(body);
        expect(addField('a', () => 1)(body, {})).to.equal(body);
        expect(mapListItems('items', removeField('a'))(body, {})).to.equal(body);
      }
      const noItems = { items: 'none' };
      expect(mapListItems('items', removeField('a'))(noItems, {})).to.equal(noItems);
    });

    it('return the same object when the field is absent', () => {
      const body = { b: 1 };
      expect(renameField('a', 'c')(body, {})).to.equal(body);
      expect(removeField('a')(body, {})).to.equal(body);
    });

    it('compose left to right', () => {
      const f = pipeTransforms(
        renameField('a', 'b'),
        addField('c', (x) => x['b']),
      );
      expect(f(deepFreeze({ a: 1 }), {})).to.deep.equal({ b: 1, c: 1 });
    });
  });
});
