/**
 * This feature's object mothers (testing/record-mothers.ts has the kernel's): valid records for its
 * storage ports, every field present (absent values `null`, as stored); overrides replace whole fields.
 */
import type { BureauFlowState } from './bureau-flow.machine.js';

/** One bureau flow state of each kind, for round-trip checks. */
export const BUREAU_STATES: ReadonlyArray<BureauFlowState> = [
  { _tag: 'initial', consentOnFile: true },
  { _tag: 'consent' },
  { _tag: 'validate_otp', consentOnFile: false, otpFailures: 2 },
  { _tag: 'identity', consentOnFile: true },
  { _tag: 'authenticated' },
];
