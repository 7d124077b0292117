/**
 * The per-user bureau authentication flow (spec 3.2, DESIGN 7.4) as a tagged
 * union of states. A state names the step awaited.
 * NOTE(owner: bureau work): implement `transition` and its exhaustive tests.
 */
import * as t from 'io-ts';
import { Id, Timestamp } from './primitives.js';

export const BureauStep = t.keyof({ consent: null, validate_otp: null, identity: null }, 'BureauStep');
export type BureauStep = t.TypeOf<typeof BureauStep>;

export const BureauFlowState = t.union(
  [
    t.type({ _tag: t.literal('initial'), consentOnFile: t.boolean }),
    t.type({ _tag: t.literal('consent') }),
    t.type({ _tag: t.literal('validate_otp'), consentOnFile: t.boolean, otpFailures: t.number }),
    t.type({ _tag: t.literal('identity'), consentOnFile: t.boolean }),
    t.type({ _tag: t.literal('authenticated') }),
  ],
  'BureauFlowState',
);
export type BureauFlowState = t.TypeOf<typeof BureauFlowState>;

/** The persisted flow: `version` increases by one with every stored transition (compare-and-set). */
export const BureauFlowRecord = t.type(
  { user_id: Id, version: t.number, state: BureauFlowState, updated_at: Timestamp },
  'BureauFlowRecord',
);
export type BureauFlowRecord = t.TypeOf<typeof BureauFlowRecord>;

export const INITIAL_STATE: BureauFlowState = { _tag: 'initial', consentOnFile: false };
