/**
 * Monthly payment status codes (spec 2.2).
 */
import * as t from 'io-ts';

export const PaymentCode = t.keyof(
  { '0': null, '1': null, '2': null, '3': null, '4': null, '5': null, '6': null, '7': null, '8': null, '9': null, E: null, '*': null, '': null },
  'PaymentCode',
);
export type PaymentCode = t.TypeOf<typeof PaymentCode>;
