/**
 * Object mothers of the kernel (ids, cents, dates, timestamps, token hashes). Each feature's
 * own mothers (valid `New*` records for its storage ports, with every field present, absent
 * values `null` as stored; overrides replace whole fields) are in its `record-mothers.ts`.
 *
 * Branded values are made through their codecs, so a mother can never hand a
 * contract suite something the codecs would reject.
 *
 * @example
 *   const user = await expectRight(store.users.create(aUser(clientId, { last_name: 'Nomatch' })));
 *   const account = await expectRight(store.accounts.create(anAccount(user.id, { type: 'depository' })));
 */
import { Cents, IsoDate, Timestamp } from '../shared/primitives.js';
import { idOf } from '../shared/constructors.js';
import { make } from './make.js';

/** An id of one kind: `anId('user', 7)` (core's `idOf`). */
export const anId = idOf;
/** A `Cents` amount. */
export const cents = (n: number): Cents => make(Cents, n);
/** A calendar date `YYYY-MM-DD`. */
export const isoDate = (s: string): IsoDate => make(IsoDate, s);
/** An ISO-8601 UTC timestamp. */
export const timestamp = (s: string): Timestamp => make(Timestamp, s);

/** The fixed instant test records are created at (tests never read the clock). */
export const CREATED_AT = timestamp('2024-07-01T12:00:00.000Z');
/** The calendar date of `CREATED_AT`. */
export const TODAY = isoDate('2024-07-01');

/**
 * A token hash as the token repository stores it: 64 hex characters (SHA-256).
 * Distinct `n` give distinct hashes; no crypto needed to make one.
 */
export const aTokenHash = (n: number): string => n.toString(16).padStart(64, '0');
