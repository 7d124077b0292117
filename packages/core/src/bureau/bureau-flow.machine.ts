/**
 * The per-user bureau authentication flow (docs/api/reference.md) as a tagged
 * union of states. A state names the step awaited.
 *
 *   initial ──invoke──▶ consent ──consent──▶ validate_otp ──validate_otp──▶ identity ──identity──▶ authenticated
 *   initial (consent on file), authenticated ──invoke──▶ validate_otp (the consent step is skipped)
 *   validate_otp ──otp_failure 1–4──▶ validate_otp;  5th otp_failure ──▶ initial (consent forgotten)
 *   any state ──abort──▶ initial (consent forgotten)
 *
 * `transition` is total and pure: the bureau calls (checking the code, the
 * identity answers, deleting the partial identity) happen in the use case,
 * which feeds their outcome in as an event.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { Id, Timestamp } from '../shared/primitives.js';
import { conflict, type Conflict } from '../shared/errors.js';
import { boundedInt } from '../shared/codec.js';

export const BureauStep = t.keyof({ consent: null, validate_otp: null, identity: null }, 'BureauStep');
export type BureauStep = t.TypeOf<typeof BureauStep>;

/** Wrong one-time passwords tolerated in one flow: the 5th rolls the flow back to `initial`. */
export const MAX_OTP_FAILURES = 5;

/** Wrong codes entered so far in the current flow; never reaches MAX_OTP_FAILURES (that rolls back). */
const OtpFailures = boundedInt(0, MAX_OTP_FAILURES - 1, 'OtpFailures');

/**
 * `consentOnFile` means consent was given in an earlier flow that reached
 * `authenticated`, so invoke skips the consent step. Consent given inside a
 * flow is only remembered once that flow authenticates (docs/api/reference.md); abort and
 * the OTP roll-back forget it. In `validate_otp` and `identity` it records
 * whether this flow started with consent on file (the consent step was skipped).
 */
export const BureauFlowState = t.union(
  [
    t.type({ _tag: t.literal('initial'), consentOnFile: t.boolean }),
    t.type({ _tag: t.literal('consent') }),
    t.type({ _tag: t.literal('validate_otp'), consentOnFile: t.boolean, otpFailures: OtpFailures }),
    t.type({ _tag: t.literal('identity'), consentOnFile: t.boolean }),
    t.type({ _tag: t.literal('authenticated') }),
  ],
  'BureauFlowState',
);
export type BureauFlowState = t.TypeOf<typeof BureauFlowState>;

/**
 * The version of a flow that was never stored. The repository's compare-and-set
 * (`BureauFlowRepository.save(userId, expectedVersion, ...)`) stores
 * `expectedVersion + 1`, so a stored record always has version ≥ 1; a use case
 * that finds no record transitions from `INITIAL_STATE` with this version.
 */
export const initialFlowRecordVersion = 0;

/** The persisted flow: `version` increases by one with every stored transition (compare-and-set). */
export const BureauFlowRecord = t.type(
  {
    user_id: Id,
    version: boundedInt(initialFlowRecordVersion + 1, Number.MAX_SAFE_INTEGER, 'FlowVersion'),
    state: BureauFlowState,
    updated_at: Timestamp,
  },
  'BureauFlowRecord',
);
export type BureauFlowRecord = t.TypeOf<typeof BureauFlowRecord>;

/** A user with no stored flow is here, as is every flow after abort. */
export const INITIAL_STATE: BureauFlowState = Object.freeze({ _tag: 'initial', consentOnFile: false });

/**
 * What happened, as the use case reports it: the request was accepted by the
 * bureau (`consent`, `validate_otp`, `identity`), the bureau rejected a code
 * (`otp_failure`), or the client asked to start (`invoke`) or roll back (`abort`).
 */
export type BureauEvent =
  | { readonly _tag: 'invoke' }
  | { readonly _tag: 'consent' }
  | { readonly _tag: 'validate_otp' }
  | { readonly _tag: 'otp_failure' }
  | { readonly _tag: 'identity' }
  | { readonly _tag: 'abort' };
export type BureauEventTag = BureauEvent['_tag'];

/** Every event, one value each (events carry no data). */
export const BureauEvents: { readonly [K in BureauEventTag]: Extract<BureauEvent, { _tag: K }> } = Object.freeze({
  invoke: { _tag: 'invoke' },
  consent: { _tag: 'consent' },
  validate_otp: { _tag: 'validate_otp' },
  otp_failure: { _tag: 'otp_failure' },
  identity: { _tag: 'identity' },
  abort: { _tag: 'abort' },
});

export const BureauFlowStatus = t.keyof({ initial: null, pending: null, authenticated: null }, 'BureauFlowStatus');
export type BureauFlowStatus = t.TypeOf<typeof BureauFlowStatus>;

const absurd = (x: never): never => {
  throw new Error(`Unhandled bureau flow value: ${JSON.stringify(x)}`);
};

/**
 * The step whose request must be made next, or `null` when no flow is pending.
 * @example awaitedStep({ _tag: 'identity', consentOnFile: false }) === 'identity'
 */
export const awaitedStep = (state: BureauFlowState): BureauStep | null => {
  switch (state._tag) {
    case 'initial':
    case 'authenticated':
      return null;
    case 'consent':
    case 'validate_otp':
    case 'identity':
      return state._tag;
    default:
      return absurd(state);
  }
};

/**
 * The `status` of `GET /api/users/{id}/bureau/auth`.
 * @example flowStatus({ _tag: 'consent' }) === 'pending'
 */
export const flowStatus = (state: BureauFlowState): BureauFlowStatus => {
  switch (state._tag) {
    case 'initial':
      return 'initial';
    case 'authenticated':
      return 'authenticated';
    case 'consent':
    case 'validate_otp':
    case 'identity':
      return 'pending';
    default:
      return absurd(state);
  }
};

const NOT_IN_PROGRESS = 'No bureau authentication in progress; invoke first';
const awaits = (step: BureauStep): Conflict => conflict(`The bureau flow awaits ${step}`);

const startFlow = (consentOnFile: boolean): BureauFlowState =>
  consentOnFile ? { _tag: 'validate_otp', consentOnFile: true, otpFailures: 0 } : { _tag: 'consent' };

/**
 * `Right(state)` when the flow awaits `step`, else the `conflict` that
 * `transition` would return for that step's events. A use case checks this
 * before asking the bureau anything, so an out-of-order request never reaches it.
 * @example expectAwaiting({ _tag: 'consent' }, 'identity') // left(conflict('The bureau flow awaits consent'))
 */
export const expectAwaiting = (state: BureauFlowState, step: BureauStep): E.Either<Conflict, BureauFlowState> => {
  const awaited = awaitedStep(state);
  if (awaited === null) return E.left(conflict(NOT_IN_PROGRESS));
  return awaited === step ? E.right(state) : E.left(awaits(awaited));
};

const invoke = (state: BureauFlowState): BureauFlowState => {
  switch (state._tag) {
    case 'initial':
      return startFlow(state.consentOnFile);
    case 'authenticated':
      return startFlow(true);
    case 'consent':
    case 'validate_otp':
    case 'identity':
      return state;
    default:
      return absurd(state);
  }
};

type StepEvent = Extract<BureauEvent, { _tag: 'consent' | 'validate_otp' | 'otp_failure' | 'identity' }>;

/** The step event's effect, once `expectAwaiting` has established that `state` awaits it. */
const completeStep = (state: BureauFlowState, event: StepEvent): BureauFlowState => {
  switch (event._tag) {
    case 'consent':
      return { _tag: 'validate_otp', consentOnFile: false, otpFailures: 0 };
    case 'validate_otp':
      return { _tag: 'identity', consentOnFile: state._tag === 'validate_otp' && state.consentOnFile };
    case 'otp_failure': {
      // Narrowing only: expectAwaiting has already established that the flow awaits validate_otp.
      if (state._tag !== 'validate_otp') return state;
      const failures = state.otpFailures + 1;
      return failures >= MAX_OTP_FAILURES
        ? INITIAL_STATE
        : { _tag: 'validate_otp', consentOnFile: state.consentOnFile, otpFailures: failures };
    }
    case 'identity':
      return { _tag: 'authenticated' };
    default:
      return absurd(event);
  }
};

const stepOf = (event: StepEvent): BureauStep => (event._tag === 'otp_failure' ? 'validate_otp' : event._tag);

/**
 * Apply one event. An event that is not allowed now is a `conflict` (409) that
 * names the awaited step; the state is then unchanged.
 *
 * - `invoke` from `initial`/`authenticated` starts a flow at `consent`, or at
 *   `validate_otp` when consent is on file (always so after `authenticated`).
 *   While a flow is pending it returns the very same state object, so callers
 *   can skip the write (`next === state`).
 * - `consent`, `validate_otp`, `identity` (the bureau accepted that step) and
 *   `otp_failure` (it rejected a code) are allowed only while their step is awaited.
 * - `otp_failure` 1–4 stay in `validate_otp`; the 5th ({@link MAX_OTP_FAILURES})
 *   rolls back to `initial` and forgets consent.
 * - `abort` from any state goes to `initial` without consent (idempotent).
 *
 * @example
 * transition({ _tag: 'authenticated' }, { _tag: 'invoke' })
 * // right({ _tag: 'validate_otp', consentOnFile: true, otpFailures: 0 })
 */
export const transition = (state: BureauFlowState, event: BureauEvent): E.Either<Conflict, BureauFlowState> => {
  switch (event._tag) {
    case 'abort':
      return E.right(INITIAL_STATE);
    case 'invoke':
      return E.right(invoke(state));
    case 'consent':
    case 'validate_otp':
    case 'otp_failure':
    case 'identity':
      return E.map((awaiting: BureauFlowState) => completeStep(awaiting, event))(expectAwaiting(state, stepOf(event)));
    default:
      return absurd(event);
  }
};
