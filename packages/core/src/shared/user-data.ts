/**
 * What the user delete does with each store port (docs/decisions/tenancy.md#erasure), the kernel's
 * side: the row types and the delete a table describes. Each feature's manifest gives ONE row per
 * store port it owns (`userData`, typed `UserDataRowsOf` its ports), so a new port does not compile
 * until it says whether its records are the user's; the registry merges them into `USER_DATA`
 * (registry/user-data.ts). A port whose records are deleted with the user names its method taking
 * the user id (`deleteAllForUser`); the compiler checks the port has it. The others say why their
 * records stay.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { StoreError } from './errors.js';
import type { UserId } from './primitives.js';
import type { PortOf, StorePortKey, TransactionPorts } from './store-ports.js';

/** The methods of `P` that delete by a user id alone: `(userId) => TaskEither`. */
export type UserDeleteMethod<P> = {
  [M in keyof P]: P[M] extends (userId: UserId) => TE.TaskEither<StoreError, unknown> ? M : never;
}[keyof P];

/** A port whose records are not deleted with the user, and why. */
export interface KeptOnUserDelete {
  readonly kept: string;
}

/** Each store port: the method deleting all of a user's records, or why they stay. */
export type UserDataRules = { readonly [K in StorePortKey]: UserDeleteMethod<TransactionPorts[K]> | KeptOnUserDelete };

/**
 * A feature's rows of the user data table, one per store port it owns (`ports`, its manifest's
 * `storePorts`): the feature's manifest module exports `userData` checked with this, so a port of
 * the feature does not compile without its row.
 */
export type UserDataRowsOf<Ports> = { readonly [K in keyof Ports]: UserDeleteMethod<PortOf<Ports[K]>> | KeptOnUserDelete };

/** The ports a table says are the user's, in the table's order. */
export const userOwnedPorts = (rules: UserDataRules): ReadonlyArray<StorePortKey> =>
  (Object.keys(rules) as StorePortKey[]).filter((key) => typeof rules[key] === 'string');

/** One port's delete of the user's records, by the method its row names. */
const deleteFrom = <K extends StorePortKey>(
  rules: UserDataRules,
  ports: TransactionPorts,
  key: K,
  userId: UserId,
): TE.TaskEither<StoreError, unknown> => {
  const rule: UserDataRules[K] = rules[key];
  if (typeof rule !== 'string') return TE.right(undefined);
  const port: TransactionPorts[K] = ports[key];
  // `rule` names a method of this port taking a user id (`UserDeleteMethod`, checked by the table's type): called on the port, as a method.
  const method = Reflect.get(port as object, rule) as (this: TransactionPorts[K], userId: UserId) => TE.TaskEither<StoreError, unknown>;
  return method.call(port, userId);
};

/** What the user delete does with the ports: delete every record of a user, on the transaction's ports. */
export type UserDataDelete = (ports: TransactionPorts, userId: UserId) => TE.TaskEither<StoreError, void>;

/**
 * The user delete of a table (the registry's is `USER_DATA`, registry/user-data.ts): every record of
 * `userId` the table says is the user's, one port after the other, in the table's order.
 */
export const userDataDelete = (rules: UserDataRules): UserDataDelete => {
  const owned = userOwnedPorts(rules);
  return (ports, userId) =>
    owned.reduce<TE.TaskEither<StoreError, void>>(
      (done, key) =>
        pipe(
          done,
          TE.chain(() => deleteFrom(rules, ports, key, userId)),
          TE.map(() => undefined),
        ),
      TE.right(undefined),
    );
};
