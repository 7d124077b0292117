import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import {
  BureauEvent,
  BureauEventTag,
  BureauEvents,
  BureauFlowRecord,
  BureauFlowState,
  INITIAL_STATE,
  MAX_OTP_FAILURES,
  awaitedStep,
  expectAwaiting,
  flowStatus,
  initialFlowRecordVersion,
  transition,
} from '../src/bureau/bureau-flow.machine.js';

// Builders: one per state shape, so the matrix below reads as a table.
const initial = (consentOnFile = false): BureauFlowState => ({ _tag: 'initial', consentOnFile });
const consent = (): BureauFlowState => ({ _tag: 'consent' });
const validateOtp = (consentOnFile = false, otpFailures = 0): BureauFlowState => ({ _tag: 'validate_otp', consentOnFile, otpFailures });
const identity = (consentOnFile = false): BureauFlowState => ({ _tag: 'identity', consentOnFile });
const authenticated = (): BureauFlowState => ({ _tag: 'authenticated' });

const EVENT_TAGS: ReadonlyArray<BureauEventTag> = ['invoke', 'consent', 'validate_otp', 'otp_failure', 'identity', 'abort'];
const STATE_TAGS: ReadonlyArray<BureauFlowState['_tag']> = ['initial', 'consent', 'validate_otp', 'identity', 'authenticated'];

/** The same state back (`same`), a new state, or a conflict with this exact message. */
type Outcome = { readonly same: true } | { readonly state: BureauFlowState } | { readonly conflict: string };
const same: Outcome = { same: true };
const to = (state: BureauFlowState): Outcome => ({ state });
const NOT_IN_PROGRESS: Outcome = { conflict: 'No bureau authentication in progress; invoke first' };
const awaits = (step: string): Outcome => ({ conflict: `The bureau flow awaits ${step}` });

interface Row {
  readonly name: string;
  readonly state: () => BureauFlowState;
  readonly outcomes: Readonly<Record<BureauEventTag, Outcome>>;
}

const MATRIX: ReadonlyArray<Row> = [
  {
    name: 'initial, no consent on file',
    state: () => initial(false),
    outcomes: {
      invoke: to(consent()),
      consent: NOT_IN_PROGRESS,
      validate_otp: NOT_IN_PROGRESS,
      otp_failure: NOT_IN_PROGRESS,
      identity: NOT_IN_PROGRESS,
      abort: to(initial(false)),
    },
  },
  {
    name: 'initial, consent on file',
    state: () => initial(true),
    outcomes: {
      invoke: to(validateOtp(true, 0)),
      consent: NOT_IN_PROGRESS,
      validate_otp: NOT_IN_PROGRESS,
      otp_failure: NOT_IN_PROGRESS,
      identity: NOT_IN_PROGRESS,
      abort: to(initial(false)),
    },
  },
  {
    name: 'consent',
    state: consent,
    outcomes: {
      invoke: same,
      consent: to(validateOtp(false, 0)),
      validate_otp: awaits('consent'),
      otp_failure: awaits('consent'),
      identity: awaits('consent'),
      abort: to(initial(false)),
    },
  },
  {
    name: 'validate_otp, consent given in this flow, no failures',
    state: () => validateOtp(false, 0),
    outcomes: {
      invoke: same,
      consent: awaits('validate_otp'),
      validate_otp: to(identity(false)),
      otp_failure: to(validateOtp(false, 1)),
      identity: awaits('validate_otp'),
      abort: to(initial(false)),
    },
  },
  {
    name: 'validate_otp, consent on file, 2 failures',
    state: () => validateOtp(true, 2),
    outcomes: {
      invoke: same,
      consent: awaits('validate_otp'),
      validate_otp: to(identity(true)),
      otp_failure: to(validateOtp(true, 3)),
      identity: awaits('validate_otp'),
      abort: to(initial(false)),
    },
  },
  {
    name: 'validate_otp, consent on file, 4 failures (the next one is the 5th)',
    state: () => validateOtp(true, 4),
    outcomes: {
      invoke: same,
      consent: awaits('validate_otp'),
      validate_otp: to(identity(true)),
      otp_failure: to(initial(false)),
      identity: awaits('validate_otp'),
      abort: to(initial(false)),
    },
  },
  {
    name: 'identity, consent given in this flow',
    state: () => identity(false),
    outcomes: {
      invoke: same,
      consent: awaits('identity'),
      validate_otp: awaits('identity'),
      otp_failure: awaits('identity'),
      identity: to(authenticated()),
      abort: to(initial(false)),
    },
  },
  {
    name: 'identity, consent on file',
    state: () => identity(true),
    outcomes: {
      invoke: same,
      consent: awaits('identity'),
      validate_otp: awaits('identity'),
      otp_failure: awaits('identity'),
      identity: to(authenticated()),
      abort: to(initial(false)),
    },
  },
  {
    name: 'authenticated',
    state: authenticated,
    outcomes: {
      invoke: to(validateOtp(true, 0)),
      consent: NOT_IN_PROGRESS,
      validate_otp: NOT_IN_PROGRESS,
      otp_failure: NOT_IN_PROGRESS,
      identity: NOT_IN_PROGRESS,
      abort: to(initial(false)),
    },
  },
];

/** Apply a list of events, failing the test on the first Left. */
const run = (start: BureauFlowState, events: ReadonlyArray<BureauEventTag>): BureauFlowState =>
  events.reduce((state, tag) => {
    const next = transition(state, BureauEvents[tag]);
    if (E.isLeft(next)) throw new Error(`unexpected ${next.left._tag} on ${tag} from ${JSON.stringify(state)}`);
    return next.right;
  }, start);

describe('bureau flow machine', () => {
  describe('transition: every (state, event) pair', () => {
    it('the matrix covers every state tag and every event', () => {
      expect(new Set(MATRIX.map((row) => row.state()._tag))).to.deep.equal(new Set(STATE_TAGS));
      for (const row of MATRIX) expect(Object.keys(row.outcomes)).to.have.members([...EVENT_TAGS]);
    });

    for (const row of MATRIX) {
      for (const tag of EVENT_TAGS) {
        const outcome = row.outcomes[tag];
        const label =
          'same' in outcome ? 'the same state' : 'state' in outcome ? JSON.stringify(outcome.state) : `conflict "${outcome.conflict}"`;
        it(`${row.name} + ${tag} → ${label}`, () => {
          // Frozen so that a transition that mutates its input throws.
          const before = Object.freeze(row.state());
          const result = transition(before, BureauEvents[tag]);
          if ('conflict' in outcome) {
            expect(result).to.deep.equal(E.left({ _tag: 'conflict', message: outcome.conflict }));
          } else if ('same' in outcome) {
            expect(E.isRight(result) && result.right).to.equal(before);
          } else {
            expect(result).to.deep.equal(E.right(outcome.state));
          }
          expect(before).to.deep.equal(row.state());
        });
      }
    }
  });

  describe('otp failures', () => {
    it('stays in validate_otp, counting, for failures 1 to 4; the 5th rolls back to initial and forgets consent', () => {
      let state = run(authenticated(), ['invoke']);
      const seen: BureauFlowState[] = [];
      for (let i = 1; i <= MAX_OTP_FAILURES; i++) {
        state = run(state, ['otp_failure']);
        seen.push(state);
      }
      expect(MAX_OTP_FAILURES).to.equal(5);
      expect(seen).to.deep.equal([validateOtp(true, 1), validateOtp(true, 2), validateOtp(true, 3), validateOtp(true, 4), initial(false)]);
      // Consent was forgotten: the next invoke asks for it again.
      expect(run(state, ['invoke'])).to.deep.equal(consent());
    });

    it('a correct code after 4 failures still moves on to identity', () => {
      expect(run(validateOtp(false, 0), ['otp_failure', 'otp_failure', 'otp_failure', 'otp_failure', 'validate_otp'])).to.deep.equal(
        identity(false),
      );
    });

    it('the failure count starts again at 0 in a new flow', () => {
      const state = run(initial(false), ['invoke', 'consent', 'otp_failure', 'otp_failure', 'abort', 'invoke', 'consent']);
      expect(state).to.deep.equal(validateOtp(false, 0));
    });
  });

  describe('consent memory', () => {
    it('a full flow authenticates, and the next invoke skips consent', () => {
      const done = run(INITIAL_STATE, ['invoke', 'consent', 'validate_otp', 'identity']);
      expect(done).to.deep.equal(authenticated());
      expect(run(done, ['invoke'])).to.deep.equal(validateOtp(true, 0));
    });

    it('abort forgets consent, even after an authentication', () => {
      expect(run(authenticated(), ['abort', 'invoke'])).to.deep.equal(consent());
    });

    it('abort is idempotent', () => {
      expect(run(identity(true), ['abort', 'abort', 'abort'])).to.deep.equal(INITIAL_STATE);
    });
  });

  describe('awaitedStep and flowStatus', () => {
    const cases: ReadonlyArray<[BureauFlowState, ReturnType<typeof awaitedStep>, ReturnType<typeof flowStatus>]> = [
      [initial(false), null, 'initial'],
      [initial(true), null, 'initial'],
      [consent(), 'consent', 'pending'],
      [validateOtp(true, 3), 'validate_otp', 'pending'],
      [identity(false), 'identity', 'pending'],
      [authenticated(), null, 'authenticated'],
    ];
    for (const [state, step, status] of cases) {
      it(`${JSON.stringify(state)} awaits ${String(step)} and is ${status}`, () => {
        expect(awaitedStep(state)).to.equal(step);
        expect(flowStatus(state)).to.equal(status);
      });
    }
  });

  describe('expectAwaiting', () => {
    it('passes the state through when the step is awaited', () => {
      const state = validateOtp(false, 1);
      expect(expectAwaiting(state, 'validate_otp')).to.deep.equal(E.right(state));
    });

    it('is the conflict that transition returns for the same step', () => {
      expect(expectAwaiting(identity(false), 'consent')).to.deep.equal(transition(identity(false), BureauEvents.consent));
      expect(expectAwaiting(authenticated(), 'identity')).to.deep.equal(transition(authenticated(), BureauEvents.identity));
    });
  });

  describe('codecs', () => {
    it('INITIAL_STATE is initial without consent and cannot be mutated', () => {
      expect(INITIAL_STATE).to.deep.equal(initial(false));
      expect(Object.isFrozen(INITIAL_STATE)).to.equal(true);
    });

    it('rejects an otp failure count that should already have rolled back, or is not a whole number', () => {
      expect(BureauFlowState.is(validateOtp(false, MAX_OTP_FAILURES - 1))).to.equal(true);
      expect(BureauFlowState.is(validateOtp(false, MAX_OTP_FAILURES))).to.equal(false);
      expect(BureauFlowState.is(validateOtp(false, -1))).to.equal(false);
      expect(BureauFlowState.is(validateOtp(false, 1.5))).to.equal(false);
      expect(BureauFlowState.is({ _tag: 'pending' })).to.equal(false);
    });

    it('a stored record has a version above initialFlowRecordVersion (0 = nothing stored yet)', () => {
      const record = { user_id: 1, version: initialFlowRecordVersion + 1, state: INITIAL_STATE, updated_at: '2024-07-01T00:00:00.000Z' };
      expect(initialFlowRecordVersion).to.equal(0);
      expect(BureauFlowRecord.is(record)).to.equal(true);
      expect(BureauFlowRecord.is({ ...record, version: initialFlowRecordVersion })).to.equal(false);
    });
  });

  describe('property: no sequence of events yields an invalid state', () => {
    // mulberry32: a tiny seeded PRNG, so every run explores the same sequences.
    const prng = (seed: number) => (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };

    it('1,000 random sequences of 40 events keep the state valid and consistent', () => {
      const random = prng(20240701);
      const visited = new Set<string>();
      // Violations are collected rather than asserted one by one: chai in a 40,000-step loop is slow.
      const violations: string[] = [];
      let conflicts = 0;
      for (let sequence = 0; sequence < 1000; sequence++) {
        let state: BureauFlowState = INITIAL_STATE;
        for (let step = 0; step < 40; step++) {
          const tag = EVENT_TAGS[Math.floor(random() * EVENT_TAGS.length)] as BureauEventTag;
          const event: BureauEvent = BureauEvents[tag];
          const result = transition(state, event);
          const where = `${tag} from ${JSON.stringify(state)}`;
          if (E.isLeft(result)) {
            // Only wrong-step events may fail, and only as a conflict naming what is awaited.
            conflicts++;
            const awaited = awaitedStep(state);
            const message = awaited === null ? 'No bureau authentication in progress; invoke first' : `The bureau flow awaits ${awaited}`;
            if (result.left._tag !== 'conflict' || result.left.message !== message || tag === 'invoke' || tag === 'abort') {
              violations.push(`${where}: ${JSON.stringify(result.left)}`);
            }
            continue;
          }
          state = result.right;
          if (!BureauFlowState.is(state)) violations.push(`${where}: invalid ${JSON.stringify(state)}`);
          if ((flowStatus(state) === 'pending') !== (awaitedStep(state) !== null)) violations.push(`${where}: status/step disagree`);
          visited.add(JSON.stringify(state));
        }
      }
      expect(violations).to.deep.equal([]);
      // The walk must actually reach deep states, or the property says little.
      expect(conflicts).to.be.greaterThan(0);
      expect(visited).to.include(JSON.stringify(authenticated()));
      expect(visited).to.include(JSON.stringify(validateOtp(true, 4)));
      expect(visited).to.include(JSON.stringify(identity(true)));
    });
  });
});
