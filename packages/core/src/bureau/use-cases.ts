/**
 * The bureau authentication flow (docs/api/reference.md). Each operation
 * reads the flow, asks the domain machine for the next state, talks to the bureau,
 * and stores the result with compare-and-set, in one transaction per step: a
 * lost race is `conflict`, a user deleted meanwhile conflicts with the step.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  validationError,
  type ValidationError,
  type NotFound,
  type Conflict,
  type BureauError,
  type Unavailable,
  type StoreError,
} from '../shared/errors.js';
import type { UserRecord } from '../users/user.js';
import {
  BureauEvent,
  BureauFlowState,
  BureauStep,
  INITIAL_STATE,
  awaitedStep,
  expectAwaiting,
  initialFlowRecordVersion,
  flowStatus,
  transition,
} from './bureau-flow.machine.js';
import { creditScoreFields, toCreditScoreView } from '../credit-scores/credit-score.js';
import type { IdentityBody, InvokeBureauBody, OtpBody } from './requests.js';
import {
  ApplicationDeps,
  type Change,
  UserScope,
  inUserTransaction,
  inUserTransactionAnswering,
  nowStamp,
  outsideTransaction,
} from '../shared/deps.js';
import { requireUser, todayOf, touchUser } from '../users/user-scope.js';
import { emitEvent } from '../webhooks/events.use-cases.js';

export interface BureauStatus {
  readonly status: 'initial' | 'pending' | 'authenticated';
  readonly step: BureauStep | null;
}

interface LoadedFlow {
  readonly user: UserRecord;
  readonly version: number;
  readonly state: BureauFlowState;
}

const statusOf = (state: BureauFlowState): BureauStatus => ({ status: flowStatus(state), step: awaitedStep(state) });

const load = (deps: Pick<ApplicationDeps, 'bureauFlows' | 'users'>, scope: UserScope): TE.TaskEither<NotFound | StoreError, LoadedFlow> =>
  pipe(
    requireUser(deps, scope),
    TE.chainW((user) =>
      pipe(
        deps.bureauFlows.get(scope.userId),
        TE.map(
          O.match(
            (): LoadedFlow => ({ user, version: initialFlowRecordVersion, state: INITIAL_STATE }),
            (flow): LoadedFlow => ({ user, version: flow.version, state: flow.state }),
          ),
        ),
      ),
    ),
  );

const step = (flow: LoadedFlow, event: BureauEvent): TE.TaskEither<Conflict, BureauFlowState> =>
  TE.fromEither(transition(flow.state, event));

/**
 * Inside the step's transaction: the flow is a record the user owns, so the
 * user is bumped (the user's delete conflicts with the step), then the flow is
 * stored with compare-and-set on its version.
 */
const save = (tx: Pick<ApplicationDeps, 'bureauFlows' | 'clock' | 'users'>, scope: UserScope, flow: LoadedFlow, next: BureauFlowState) =>
  pipe(
    touchUser(tx, scope),
    TE.chainW(() => tx.bureauFlows.save(scope.userId, flow.version, next, nowStamp(tx.clock))),
    TE.map((record) => record.state),
  );

export const getBureauStatus =
  (deps: Pick<ApplicationDeps, 'bureauFlows' | 'users'>) =>
  (scope: UserScope): TE.TaskEither<NotFound | Unavailable, BureauStatus> =>
    pipe(
      outsideTransaction(load(deps, scope)),
      TE.map((flow) => statusOf(flow.state)),
    );

/** Start (or, while pending, report) the flow: answers the step to request next. */
export const invokeBureau =
  (deps: Pick<ApplicationDeps, 'bureau' | 'clock' | 'unitOfWork'>) =>
  (scope: UserScope, body: InvokeBureauBody): Change<{ step: BureauStep }, ValidationError | NotFound | BureauError | StoreError> =>
    inUserTransactionAnswering(deps, scope, (tx) =>
      pipe(
        load(tx, scope),
        TE.chainW((flow) =>
          pipe(
            step(flow, { _tag: 'invoke' }),
            // While a flow is pending, invoke answers the awaited step and changes nothing.
            TE.chainW((next) =>
              next === flow.state
                ? TE.right(next)
                : pipe(
                    tx.bureau.invoke(flow.user, body.device_ip),
                    TE.chainW(() => save(tx, scope, flow, next)),
                  ),
            ),
          ),
        ),
        // The flow saved above commits even if it awaits no step (an answer after the change, as before).
        TE.map((state): E.Either<ValidationError, { step: BureauStep }> => {
          const awaited = awaitedStep(state);
          return awaited === null ? E.left(validationError('The bureau flow did not start')) : E.right({ step: awaited });
        }),
      ),
    );

export const consentBureau =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork'>) =>
  (scope: UserScope): Change<BureauStatus, NotFound | StoreError> =>
    inUserTransaction(deps, scope, (tx) =>
      pipe(
        load(tx, scope),
        TE.chainW((flow) =>
          pipe(
            step(flow, { _tag: 'consent' }),
            TE.chainW((next) => save(tx, scope, flow, next)),
          ),
        ),
        TE.map(statusOf),
      ),
    );

/**
 * Check the one-time code. A right code moves the flow on; a wrong one is
 * counted (the 5th resets the flow), in the same one transaction, which
 * commits the count and still answers the 400 (`inUserTransactionAnswering`):
 * a count that the error could roll back would let a client guess codes
 * without limit. Under an Idempotency-Key the 400 is kept with the count.
 */
export const validateBureauOtp =
  (deps: Pick<ApplicationDeps, 'bureau' | 'clock' | 'unitOfWork'>) =>
  (scope: UserScope, body: OtpBody): Change<BureauStatus, ValidationError | NotFound | StoreError> =>
    inUserTransactionAnswering(deps, scope, (tx) =>
      pipe(
        load(tx, scope),
        // Refuse an out-of-order request before the bureau is asked anything.
        TE.chainFirstW((flow) => TE.fromEither(expectAwaiting(flow.state, 'validate_otp'))),
        TE.chainW((flow) =>
          pipe(
            tx.bureau.verifyOtp(flow.user, body.code),
            TE.chainW((ok) =>
              pipe(
                step(flow, { _tag: ok ? 'validate_otp' : 'otp_failure' }),
                TE.chainW((next) => save(tx, scope, flow, next)),
                TE.map((state): E.Either<ValidationError, BureauStatus> =>
                  ok
                    ? E.right(statusOf(state))
                    : E.left(
                        validationError(
                          state._tag === 'initial'
                            ? 'Wrong one-time code; too many attempts, the flow was reset: invoke again'
                            : 'Wrong one-time code',
                          [{ path: 'code', message: 'does not match' }],
                        ),
                      ),
                ),
              ),
            ),
          ),
        ),
      ),
    );

/**
 * Answer the identity questions. On success the bureau's report becomes a new
 * credit score; the report is fetched before the flow is stored so a failure
 * leaves the flow where it was.
 */
export const submitBureauIdentity =
  (deps: Pick<ApplicationDeps, 'bureau' | 'clock' | 'unitOfWork' | 'versioning'>) =>
  (scope: UserScope, body: IdentityBody): Change<BureauStatus, ValidationError | NotFound | BureauError | StoreError> =>
    // One transaction: the flow, the new score and both events commit together.
    inUserTransaction(deps, scope, (tx) =>
      pipe(
        load(tx, scope),
        TE.chainW((flow) => {
          // The report's ages and recent accounts, and the score's date, are the user's today (docs/sandbox-over-time.md).
          const date = todayOf(deps.clock, flow.user);
          return pipe(
            step(flow, { _tag: 'identity' }),
            TE.chainFirstW(() => tx.bureau.verifyIdentity(flow.user, body)),
            TE.chainW((next) =>
              pipe(
                TE.Do,
                TE.bindW('accounts', () => tx.accounts.listAll(scope.userId)),
                TE.bindW('report', ({ accounts }) => tx.bureau.fetchReport(flow.user, accounts, date)),
                TE.bindW('previous', () => tx.creditScores.latest(scope.userId)),
                TE.bindW('state', () => save(tx, scope, flow, next)),
                TE.bindW('score', ({ report, previous }) =>
                  tx.creditScores.add({
                    ...creditScoreFields(
                      report,
                      date,
                      flow.user.last_name,
                      pipe(
                        previous,
                        O.match(
                          () => null,
                          (p) => p.score,
                        ),
                      ),
                    ),
                    user_id: scope.userId,
                    created_at: nowStamp(tx.clock),
                  }),
                ),
                TE.chainFirstW(({ score }) => emitEvent(tx, scope, 'credit_score.created', 'credit_score')(toCreditScoreView(score))),
                TE.map(({ state }) => statusOf(state)),
                TE.chainFirstW(emitEvent(tx, scope, 'bureau_auth.completed', 'bureau_status')),
              ),
            ),
          );
        }),
      ),
    );

/** Roll the flow back to the initial state (idempotent); the bureau may refuse to delete the identity. */
export const abortBureau =
  (deps: Pick<ApplicationDeps, 'bureau' | 'clock' | 'unitOfWork'>) =>
  (scope: UserScope): Change<BureauStatus, ValidationError | NotFound | StoreError> =>
    inUserTransaction(deps, scope, (tx) =>
      pipe(
        load(tx, scope),
        TE.chainW((flow) =>
          pipe(
            step(flow, { _tag: 'abort' }),
            TE.chainW((next) =>
              flow.state._tag === 'initial' && !flow.state.consentOnFile
                ? TE.right(next)
                : pipe(
                    tx.bureau.deleteIdentity(flow.user),
                    TE.chainW(() => save(tx, scope, flow, next)),
                  ),
            ),
          ),
        ),
        TE.map(statusOf),
      ),
    );

/** The credit bureau flow: this feature's use cases bound to `deps`, as `createApplication` spreads them (docs/adding-a-resource.md). */
export const bureauUseCases = (deps: ApplicationDeps) => ({
  getBureauStatus: getBureauStatus(deps),
  invokeBureau: invokeBureau(deps),
  consentBureau: consentBureau(deps),
  validateBureauOtp: validateBureauOtp(deps),
  submitBureauIdentity: submitBureauIdentity(deps),
  abortBureau: abortBureau(deps),
});
