/**
 * Fields several features' request codecs share (shared/requests.ts, `<feature>/requests.ts`).
 * Not exported by the package: each body that uses them is.
 */
import * as t from 'io-ts';
import { Cents } from './primitives.js';
import { boundedString, describedAs } from './codec.js';

/** A positive whole number of cents (a payment, a budget, a balance to pay off). */
export const PositiveCents = describedAs(
  t.refinement(Cents, (n) => n > 0, 'positive cents'),
  'a positive whole number of cents',
);
export const Name = boundedString(1, 100, 'string(1..100)');
export const Text = (max: number) => boundedString(0, max, `string(0..${max})`);
