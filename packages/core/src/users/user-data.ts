/**
 * What the user delete does with each store port (docs/decisions/tenancy.md#erasure): ONE
 * row per port of `STORE_PORTS`, so a new port does not compile until it says
 * whether its records are the user's. A port whose records are deleted with the
 * user names its method taking the user id (`deleteAllForUser`); the compiler
 * checks the port has it. The others say why their records stay.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { StoreError } from '../shared/errors.js';
import type { UserId } from '../shared/primitives.js';
import type { StorePortKey, TransactionPorts } from '../shared/store-ports.js';

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
 * THE table. The user delete runs the deleting ports in this table's order: a record
 * goes before the records it points to (payments, then plans, then the accounts they
 * pay), all before the user itself, in the delete's one transaction.
 */
export const USER_DATA = {
  planPayments: 'deleteAllForUser',
  paymentPlans: 'deleteAllForUser',
  creditScores: 'deleteAllForUser',
  bureauFlows: 'deleteForUser',
  accounts: 'deleteAllForUser',
  users: { kept: 'the user itself: deleted by the user delete after its data, which points to it' },
  clients: { kept: "the client's, not the user's" },
  tokens: { kept: "the client's, not the user's" },
  idempotency: { kept: 'kept answers expire on their own; a replay is redacted by the erasure marker' },
  events: { kept: "the client's 30 days of events; the user's are redacted by the erasure marker" },
  webhookEndpoints: { kept: "the client's, not the user's" },
  webhookDeliveries: { kept: "sent ones are the receiver's; the user delete cancels the pending ones (cancelPendingForUser)" },
  erasures: { kept: 'the user delete records the erasure marker here' },
  audit: { kept: "the operators' log of admin changes" },
} as const satisfies UserDataRules;

/** The ports whose records are the user's, in the order they are deleted. */
export const USER_OWNED_PORTS: ReadonlyArray<StorePortKey> = (Object.keys(USER_DATA) as StorePortKey[]).filter(
  (key) => typeof USER_DATA[key] === 'string',
);

/** One port's delete of the user's records, by the method its row names. */
const deleteFrom = <K extends StorePortKey>(ports: TransactionPorts, key: K, userId: UserId): TE.TaskEither<StoreError, unknown> => {
  const rule: UserDataRules[K] = (USER_DATA as UserDataRules)[key];
  if (typeof rule !== 'string') return TE.right(undefined);
  const port: TransactionPorts[K] = ports[key];
  // `rule` names a method of this port taking a user id (`UserDeleteMethod`, checked by the table's type): called on the port, as a method.
  const method = Reflect.get(port as object, rule) as (this: TransactionPorts[K], userId: UserId) => TE.TaskEither<StoreError, unknown>;
  return method.call(port, userId);
};

/** Delete every record of `userId` the table says is the user's, one port after the other, on the transaction's ports. */
export const deleteUserData = (ports: TransactionPorts, userId: UserId): TE.TaskEither<StoreError, void> =>
  USER_OWNED_PORTS.reduce<TE.TaskEither<StoreError, void>>(
    (done, key) =>
      pipe(
        done,
        TE.chain(() => deleteFrom(ports, key, userId)),
        TE.map(() => undefined),
      ),
    TE.right(undefined),
  );
