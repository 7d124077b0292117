/**
 * The sandbox demo (docs/operations.md): a client with a token, user 1 with a realistic
 * mix of linked accounts and a completed bureau authentication, so that every
 * read endpoint answers right after `npm start`. Seeding is explicit: stores
 * start empty.
 *
 * Seeding is idempotent, on any store, so it can run at every start: the demo
 * is found by its token (the hash is unique); a second start adds nothing.
 *
 * Seeds racing on an empty store (API processes starting at the same instant)
 * converge on one demo without transactions: a seed that finds no token builds
 * a whole demo of its own under a new client (user, accounts, bureau flow,
 * first score), which no request can reach, then publishes it by storing the
 * token, last. The token's hash is unique, so exactly one seed publishes; a
 * seed that gets `conflict` there deletes what it built and answers the
 * published demo. A seed that fails before publishing deletes what it built
 * too, as far as the store lets it; what a crash leaves behind is a client
 * without a token (nothing reaches it), and the next start builds the demo anew.
 * Publishing fails without `conflict` only when its outcome is unknown (the
 * store went away): nothing is deleted then, since the token may be stored.
 *
 * A demo found by its token is completed where it lacks something (a demo an
 * older release seeded part-way): the user, each account by name, the bureau
 * flow, the first score. Only that completion is not race-free, and only a
 * demo published complete by this release never needs it.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import { noAccountDetails, type AccountRecord } from '../accounts/account.js';
import type { Client, TokenRecord } from '../clients/client.js';
import { type ValidationError, type Conflict, type StoreError } from '../shared/errors.js';
import type { PaymentCode } from '../accounts/payment-history.js';
import type { UserRecord } from '../users/user.js';
import { addMonths, timestampOf, utcDate, type Cents, type ClientId, type IsoDate, type Timestamp } from '../shared/primitives.js';
import { creditScoreFields } from '../credit-scores/credit-score.js';
import { deriveCreditReport } from '../bureau/credit-report.js';
import { initialFlowRecordVersion } from '../bureau/bureau-flow.machine.js';
import { CURRENT_VERSION } from '../shared/versioning/version-names.js';
import type { Clock } from '../shared/clock.js';
import type { StorePorts } from '../shared/unit-of-work.js';
import type { TokenHasher } from '../clients/token-hasher.js';
import { isWellFormedToken } from '../clients/client.js';
import { validationError } from '../shared/errors.js';

export interface DemoSeed {
  readonly client: Client;
  readonly user: UserRecord;
  readonly accounts: ReadonlyArray<AccountRecord>;
  /** The second demo user, whose accounts carry statement terms (docs/decisions/payoff-and-outlook.md), and its accounts. */
  readonly statementUser?: UserRecord;
  readonly statementAccounts?: ReadonlyArray<AccountRecord>;
}

type SeedAccount = Omit<AccountRecord, 'id' | 'user_id' | 'created_at' | 'last_updated_at' | 'version'>;

/** 24 months of history, most recent first: on time, with late months at the given positions. */
const history = (late: Readonly<Record<number, PaymentCode>> = {}, length = 24): PaymentCode[] =>
  Array.from({ length }, (_, i) => late[i] ?? '1');

const account = (a: Partial<SeedAccount> & Pick<SeedAccount, 'name' | 'type' | 'subtype' | 'balance'>): SeedAccount => ({
  ...noAccountDetails(),
  status: 'active',
  first_time_payment: false,
  ...a,
});

const cents = (dollars: number): Cents => Math.round(dollars * 100) as Cents;

/** The demo accounts, dated relative to `today` so the demo never ages. */
export const demoAccounts = (today: IsoDate): SeedAccount[] => {
  const ago = (months: number): IsoDate => addMonths(today, -months);
  const due = addMonths(today, 1);
  const paid = ago(1);
  return [
    account({
      name: 'Everyday Rewards Visa',
      type: 'loan',
      subtype: 'credit_card_loan',
      mask: '4821',
      balance: cents(3_450.12),
      limit: cents(8_000),
      apr: 24.99,
      minimum_payment: cents(105),
      last_payment_amount: cents(150),
      last_payment_date: paid,
      opened_at: ago(74),
      institution_name: 'First Platinum Bank',
      next_payment_due_date: due,
      payments_history: history({ 7: '2' }),
    }),
    account({
      name: 'Travel Plus Mastercard',
      type: 'loan',
      subtype: 'credit_card_loan',
      mask: '9043',
      balance: cents(1_275.4),
      limit: cents(5_000),
      apr: 19.49,
      minimum_payment: cents(40),
      last_payment_amount: cents(40),
      last_payment_date: paid,
      opened_at: ago(9),
      institution_name: 'Harbor Credit Union',
      next_payment_due_date: due,
      payments_history: history({}, 9),
    }),
    account({
      name: 'Federal Direct Loan',
      type: 'loan',
      subtype: 'student_loan',
      mask: '1177',
      balance: cents(18_920.55),
      original_loan_amount: cents(27_000),
      apr: 5.5,
      minimum_payment: cents(290),
      last_payment_amount: cents(290),
      last_payment_date: paid,
      opened_at: ago(96),
      institution_name: 'Nelnet',
      next_payment_due_date: due,
      payments_history: history({ 15: '3', 16: '2' }),
    }),
    account({
      name: 'Auto Loan',
      type: 'loan',
      subtype: 'auto_loan',
      mask: '5530',
      balance: cents(12_310),
      original_loan_amount: cents(24_500),
      apr: 6.9,
      minimum_payment: cents(455),
      last_payment_amount: cents(455),
      last_payment_date: paid,
      opened_at: ago(38),
      institution_name: 'Summit Auto Finance',
      next_payment_due_date: due,
      payments_history: history(),
    }),
    account({
      name: 'Home Improvement Loan',
      type: 'loan',
      subtype: 'personal_loan',
      mask: '2208',
      balance: cents(4_800),
      original_loan_amount: cents(7_500),
      apr: 11.25,
      minimum_payment: cents(210),
      last_payment_amount: cents(210),
      last_payment_date: paid,
      opened_at: ago(20),
      institution_name: 'Greenleaf Lending',
      next_payment_due_date: due,
      payments_history: history({ 4: '2' }, 20),
    }),
    account({
      name: '30-year Fixed Mortgage',
      type: 'loan',
      subtype: 'mortgage_loan',
      mask: '6614',
      balance: cents(231_400),
      original_loan_amount: cents(260_000),
      apr: 4.25,
      minimum_payment: cents(1_279),
      last_payment_amount: cents(1_279),
      last_payment_date: paid,
      opened_at: ago(62),
      institution_name: 'Keystone Home Loans',
      next_payment_due_date: due,
      payments_history: history(),
    }),
    account({
      name: 'Everyday Checking',
      type: 'depository',
      subtype: 'checking',
      mask: '0042',
      balance: cents(2_185.37),
      opened_at: ago(120),
      institution_name: 'First Platinum Bank',
      first_time_payment: null,
      payments_history: [],
    }),
  ];
};

/**
 * The second demo user's accounts (docs/decisions/payoff-and-outlook.md), dated relative to `today`: what
 * real statements carry. A "1% of the balance plus interest, $25 minimum" card
 * compounded daily; a card with purchases and a 0% balance transfer that ends
 * in 8 months; a medical card on a deferred-interest promotion that ends in 7
 * months (the charge posts if a balance is left); a mortgage whose payment
 * includes escrow; a student loan with simple daily interest and interest
 * accrued. All pass the link rules (statement-terms.ts).
 */
export const statementDemoAccounts = (today: IsoDate): SeedAccount[] => {
  const ago = (months: number): IsoDate => addMonths(today, -months);
  const due = addMonths(today, 1);
  const paid = ago(1);
  return [
    account({
      name: 'Cashback Everyday Card',
      type: 'loan',
      subtype: 'credit_card_loan',
      mask: '3310',
      balance: cents(5_000),
      limit: cents(9_000),
      apr: 24.99,
      interest_method: 'daily_compound',
      minimum_payment_formula: { floor: cents(25), terms: [{ percent_of_balance: 1, plus_interest: true }] },
      last_payment_amount: cents(152),
      last_payment_date: paid,
      opened_at: ago(51),
      institution_name: 'Northwind Card Services',
      next_payment_due_date: due,
      payments_history: history(),
    }),
    account({
      name: 'Balance Transfer Card',
      type: 'loan',
      subtype: 'credit_card_loan',
      mask: '7702',
      balance: cents(6_100),
      limit: cents(10_000),
      interest_method: 'daily_compound',
      minimum_payment_formula: { floor: cents(35), terms: [{ percent_of_balance: 1, plus_interest: true }] },
      apr_segments: [
        { kind: 'purchase', balance: cents(2_100), apr: 22.99 },
        { kind: 'balance_transfer', balance: cents(4_000), apr: 0, promo_ends_on: addMonths(today, 8), go_to_apr: 22.99 },
      ],
      last_payment_amount: cents(90),
      last_payment_date: paid,
      opened_at: ago(6),
      institution_name: 'Harbor Credit Union',
      next_payment_due_date: due,
      payments_history: history({}, 6),
    }),
    account({
      name: 'Medical Financing Card',
      type: 'loan',
      subtype: 'medical_loan',
      mask: '4417',
      balance: cents(2_400),
      limit: cents(5_000),
      minimum_payment: cents(60),
      interest_method: 'daily_compound',
      apr_segments: [
        {
          kind: 'promotional',
          balance: cents(2_400),
          apr: 0,
          promo_ends_on: addMonths(today, 7),
          go_to_apr: 26.99,
          deferred_interest: true,
          accrued_deferred_interest: cents(184.2),
        },
      ],
      last_payment_amount: cents(60),
      last_payment_date: paid,
      opened_at: ago(5),
      institution_name: 'Wellpath Patient Financing',
      next_payment_due_date: due,
      payments_history: history({}, 5),
    }),
    account({
      name: 'Fixed Mortgage with Escrow',
      type: 'loan',
      subtype: 'mortgage_loan',
      mask: '9120',
      balance: cents(285_000),
      original_loan_amount: cents(300_000),
      apr: 6.5,
      minimum_payment: cents(2_326.39),
      escrow_payment: cents(525),
      last_payment_amount: cents(2_326.39),
      last_payment_date: paid,
      opened_at: ago(30),
      institution_name: 'Keystone Home Loans',
      next_payment_due_date: due,
      payments_history: history(),
    }),
    account({
      name: 'Graduate Student Loan',
      type: 'loan',
      subtype: 'student_loan',
      mask: '0553',
      balance: cents(24_000),
      original_loan_amount: cents(26_500),
      apr: 6.8,
      minimum_payment: cents(276),
      interest_method: 'daily_simple',
      accrued_interest: cents(310.45),
      last_payment_amount: cents(276),
      last_payment_date: paid,
      opened_at: ago(40),
      institution_name: 'Aidvantage',
      next_payment_due_date: due,
      payments_history: history({ 11: '2' }),
    }),
  ];
};

export interface SeedDemoOptions {
  /** The demo client's sandbox token; only its hash (`TokenHasher`) is stored, the caller keeps the token itself. */
  readonly token: string;
  readonly clientName?: string;
  /** The version the demo client is pinned to; default the latest (a client created today). */
  readonly apiVersion?: string;
  /** Seed the second demo user with statement terms (docs/decisions/payoff-and-outlook.md); default true. False: user 1 alone, the demo before round 5. */
  readonly statementUser?: boolean;
}

/** The ports seeding writes to. */
export type DemoSeedPorts = Pick<StorePorts, 'clients' | 'tokens' | 'users' | 'accounts' | 'bureauFlows' | 'creditScores'>;

/** What seeding reads: the ports it writes to, the clock, and the hasher the token use cases store tokens with. */
export interface DemoSeedDeps extends DemoSeedPorts {
  readonly clock: Clock;
  readonly tokenHasher: TokenHasher;
}

/** The client a found demo token names. */
const tokenClient = (store: DemoSeedPorts, clientId: ClientId): TE.TaskEither<StoreError, Client> =>
  pipe(
    store.clients.findById(clientId),
    TE.chainW(
      O.match(
        () => TE.left<Conflict, Client>({ _tag: 'conflict', message: 'The demo token belongs to no client' }),
        (c) => TE.right(c),
      ),
    ),
  );

const demoUserFields = (client: Client, createdAt: Timestamp) => ({
  client_id: client.id,
  first_name: 'Alex',
  last_name: 'Rivera',
  email: 'alex.rivera@example.com',
  date_of_birth: '1988-04-12' as IsoDate,
  phone: '+1 555 0100',
  created_at: createdAt,
});

const demoUser = (store: DemoSeedPorts, client: Client, createdAt: Timestamp): TE.TaskEither<StoreError, UserRecord> =>
  pipe(
    store.users.list(client.id, { limit: 1 }),
    TE.chainW((page) => {
      const first = page.items[0];
      return first !== undefined ? TE.right(first) : store.users.create(demoUserFields(client, createdAt));
    }),
  );

/** The second demo user (docs/decisions/payoff-and-outlook.md): accounts with statement terms. */
const statementUserFields = (client: Client, createdAt: Timestamp) => ({
  client_id: client.id,
  first_name: 'Jordan',
  last_name: 'Lee',
  email: 'jordan.lee@example.com',
  date_of_birth: '1991-09-23' as IsoDate,
  phone: '+1 555 0101',
  created_at: createdAt,
});

/** The second demo user, found by its email among the client's first users, or created (after user 1, so user 1 keeps its id). */
const statementUser = (store: DemoSeedPorts, client: Client, createdAt: Timestamp): TE.TaskEither<StoreError, UserRecord> =>
  pipe(
    store.users.list(client.id, { limit: 10 }),
    TE.chainW((page) => {
      const found = page.items.find((u) => u.email === statementUserFields(client, createdAt).email);
      return found !== undefined ? TE.right(found) : store.users.create(statementUserFields(client, createdAt));
    }),
  );

/** The demo accounts the user lacks (by name), created in order; every account of the user after. */
const demoUserAccounts = (
  store: DemoSeedPorts,
  user: UserRecord,
  today: IsoDate,
  createdAt: Timestamp,
  accounts: (today: IsoDate) => SeedAccount[] = demoAccounts,
): TE.TaskEither<StoreError, ReadonlyArray<AccountRecord>> =>
  pipe(
    store.accounts.listAll(user.id),
    TE.chainW((existing) => {
      const names = new Set(existing.map((a) => a.name));
      const missing = accounts(today).filter((a) => !names.has(a.name));
      return pipe(
        TE.sequenceSeqArray(
          missing.map((a) => store.accounts.create({ ...a, user_id: user.id, created_at: createdAt, last_updated_at: today })),
        ),
        TE.map((created) => [...existing, ...created]),
      );
    }),
  );

/** The bureau flow, authenticated, unless the user has one. */
const demoBureauFlow = (store: DemoSeedPorts, user: UserRecord, createdAt: Timestamp): TE.TaskEither<StoreError, void> =>
  pipe(
    store.bureauFlows.get(user.id),
    TE.chainW(
      O.match(
        () =>
          pipe(
            store.bureauFlows.save(user.id, initialFlowRecordVersion, { _tag: 'authenticated' }, createdAt),
            // Another seed completing the same demo stored it first: as good.
            TE.map((): void => undefined),
            TE.orElseW((e): TE.TaskEither<StoreError, void> => (e._tag === 'conflict' ? TE.right(undefined) : TE.left(e))),
          ),
        (): TE.TaskEither<never, void> => TE.right(undefined),
      ),
    ),
  );

/** The first credit score, from the accounts, unless the user has one. */
const demoScore = (
  store: DemoSeedPorts,
  user: UserRecord,
  accounts: ReadonlyArray<AccountRecord>,
  today: IsoDate,
  createdAt: Timestamp,
): TE.TaskEither<StoreError, void> =>
  pipe(
    store.creditScores.latest(user.id),
    TE.chainW(
      O.match(
        () =>
          pipe(
            store.creditScores.add({
              ...creditScoreFields(deriveCreditReport(accounts, today), today, user.last_name, null),
              user_id: user.id,
              created_at: createdAt,
            }),
            TE.map((): void => undefined),
          ),
        (): TE.TaskEither<never, void> => TE.right(undefined),
      ),
    ),
  );

/** Complete the demo of `client` where it lacks something, and answer it. */
const completeDemo = (
  store: DemoSeedPorts,
  client: Client,
  today: IsoDate,
  createdAt: Timestamp,
  withStatementUser = true,
): TE.TaskEither<StoreError, DemoSeed> =>
  pipe(
    TE.Do,
    TE.bindW('client', () => TE.right(client)),
    TE.bindW('user', () => demoUser(store, client, createdAt)),
    TE.bindW('accounts', ({ user }) => demoUserAccounts(store, user, today, createdAt)),
    TE.chainFirstW(({ user }) => demoBureauFlow(store, user, createdAt)),
    TE.chainFirstW(({ user, accounts }) => demoScore(store, user, accounts, today, createdAt)),
    TE.chainW((demo): TE.TaskEither<StoreError, DemoSeed> =>
      !withStatementUser
        ? TE.right(demo)
        : pipe(
            statementUser(store, client, createdAt),
            TE.bindTo('statementUser'),
            TE.bindW('statementAccounts', ({ statementUser }) =>
              demoUserAccounts(store, statementUser, today, createdAt, statementDemoAccounts),
            ),
            TE.chainFirstW(({ statementUser }) => demoBureauFlow(store, statementUser, createdAt)),
            TE.chainFirstW(({ statementUser, statementAccounts }) => demoScore(store, statementUser, statementAccounts, today, createdAt)),
            TE.map((second) => ({ ...demo, ...second })),
          ),
    ),
  );

/** Delete a demo this seed built and did not publish: the users' records, the users, the client. */
const discard = (store: DemoSeedPorts, client: Client, user: UserRecord | undefined): TE.TaskEither<StoreError, void> =>
  pipe(
    // Every user of the client this seed built (the second demo user too, if it got that far).
    user === undefined
      ? TE.right<StoreError, ReadonlyArray<UserRecord>>([])
      : pipe(
          store.users.list(client.id, { limit: 10 }),
          TE.map((page) => page.items),
        ),
    TE.chainW((users) =>
      TE.sequenceSeqArray(
        users.map((u) =>
          pipe(
            store.creditScores.deleteAllForUser(u.id),
            TE.chainW(() => store.bureauFlows.deleteForUser(u.id)),
            TE.chainW(() => store.accounts.deleteAllForUser(u.id)),
            TE.chainW(() => store.users.delete(client.id, u.id)),
          ),
        ),
      ),
    ),
    TE.chainW(() => store.clients.delete(client.id)),
    TE.map((): void => undefined),
  );

/** Discard what was built (a failing discard leaves only what no request reaches), then answer `next`. */
const discardThen = <A, Err>(
  store: DemoSeedPorts,
  client: Client,
  user: UserRecord | undefined,
  next: TE.TaskEither<Err, A>,
): TE.TaskEither<Err | StoreError, A> =>
  pipe(
    discard(store, client, user),
    TE.orElseW(() => TE.right<never, void>(undefined)),
    TE.chainW(() => next),
  );

/** The demo a found token names, completed. */
const demoOfToken = (
  store: DemoSeedPorts,
  token: TokenRecord,
  today: IsoDate,
  createdAt: Timestamp,
  withStatementUser = true,
): TE.TaskEither<StoreError, DemoSeed> =>
  pipe(
    tokenClient(store, token.client_id),
    TE.chainW((client) => completeDemo(store, client, today, createdAt, withStatementUser)),
  );

/** The demo the token's hash names, after another seed published it; `conflict` if there is none. */
const publishedDemo = (
  store: DemoSeedPorts,
  tokenHash: string,
  today: IsoDate,
  createdAt: Timestamp,
  withStatementUser = true,
): TE.TaskEither<StoreError, DemoSeed> =>
  pipe(
    store.tokens.findByHash(tokenHash),
    TE.chainW(
      O.match(
        () => TE.left<Conflict, DemoSeed>({ _tag: 'conflict', message: 'The demo token was taken by another seed and then not found' }),
        (token) => demoOfToken(store, token, today, createdAt, withStatementUser),
      ),
    ),
  );

/** Build a whole demo under a new client, then publish it by storing the token (see the module comment). */
const buildAndPublish = (
  store: DemoSeedPorts,
  tokenHash: string,
  options: SeedDemoOptions,
  today: IsoDate,
  createdAt: Timestamp,
): TE.TaskEither<StoreError, DemoSeed> =>
  pipe(
    store.clients.create({
      name: options.clientName ?? 'Demo app',
      environment: 'sandbox',
      api_version: options.apiVersion ?? CURRENT_VERSION,
      created_at: createdAt,
    }),
    TE.chainW((client) =>
      pipe(
        store.users.create(demoUserFields(client, createdAt)),
        TE.orElseW((e) => discardThen(store, client, undefined, TE.left<StoreError, UserRecord>(e))),
        TE.chainW((user) =>
          pipe(
            TE.sequenceSeqArray(
              demoAccounts(today).map((a) =>
                store.accounts.create({ ...a, user_id: user.id, created_at: createdAt, last_updated_at: today }),
              ),
            ),
            TE.chainFirstW(() => demoBureauFlow(store, user, createdAt)),
            TE.chainFirstW((accounts) => demoScore(store, user, accounts, today, createdAt)),
            TE.map((accounts): DemoSeed => ({ client, user, accounts })),
            TE.chainW((demo): TE.TaskEither<StoreError, DemoSeed> =>
              options.statementUser === false
                ? TE.right(demo)
                : pipe(
                    store.users.create(statementUserFields(client, createdAt)),
                    TE.bindTo('statementUser'),
                    TE.bindW('statementAccounts', ({ statementUser }) =>
                      TE.sequenceSeqArray(
                        statementDemoAccounts(today).map((a) =>
                          store.accounts.create({ ...a, user_id: statementUser.id, created_at: createdAt, last_updated_at: today }),
                        ),
                      ),
                    ),
                    TE.chainFirstW(({ statementUser }) => demoBureauFlow(store, statementUser, createdAt)),
                    TE.chainFirstW(({ statementUser, statementAccounts }) =>
                      demoScore(store, statementUser, statementAccounts, today, createdAt),
                    ),
                    TE.map((second) => ({ ...demo, ...second })),
                  ),
            ),
            TE.orElseW((e) => discardThen(store, client, user, TE.left<StoreError, DemoSeed>(e))),
            TE.chainW((demo) =>
              pipe(
                store.tokens.create(client.id, tokenHash, createdAt),
                TE.map((): DemoSeed => demo),
                TE.orElseW((e) =>
                  // Another seed published first: undo ours and answer theirs. Any other failure may have stored the token: keep everything.
                  e._tag === 'conflict'
                    ? discardThen(store, client, user, publishedDemo(store, tokenHash, today, createdAt, options.statementUser !== false))
                    : TE.left(e),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );

/**
 * Seed the demo client, its token, user 1, the accounts, a completed bureau
 * authentication and a first credit score; each only if it is not there yet.
 * The token must be a well-formed sandbox token (else no request could use it).
 */
export const seedDemo = (deps: DemoSeedDeps, options: SeedDemoOptions): TE.TaskEither<ValidationError | StoreError, DemoSeed> => {
  if (!isWellFormedToken(options.token, 'sandbox')) return TE.left(validationError('The demo token must be a well-formed sandbox token'));
  const store: DemoSeedPorts = deps;
  const now = deps.clock.now();
  const today = utcDate(now);
  const createdAt = timestampOf(now);
  const tokenHash = deps.tokenHasher.hash(options.token);
  return pipe(
    store.tokens.findByHash(tokenHash),
    TE.chainW(
      O.match(
        () => buildAndPublish(store, tokenHash, options, today, createdAt),
        (token) => demoOfToken(store, token, today, createdAt, options.statementUser !== false),
      ),
    ),
  );
};
