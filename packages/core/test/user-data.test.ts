/**
 * The user delete is derived from one table (registry/user-data.ts: the features' manifests' rows,
 * in the features' list reversed), typed against the port table: a port without a row, or a row
 * naming a method that does not delete by a user id, does not compile. Each `@ts-expect-error` below fails the build
 * (`tsc -b`) the day the table stops rejecting that mistake.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import {
  STORE_PORT_KEYS,
  USER_DATA,
  USER_OWNED_PORTS,
  deleteUserData,
  type TransactionPorts,
  type UserDataRules,
  type UserId,
} from '../src/index.js';

describe('the user data table (registry/user-data.ts)', () => {
  it('has one row per store port, and deletes the user-owned ones in the order foreign data needs', () => {
    expect(Object.keys(USER_DATA)).to.have.members([...STORE_PORT_KEYS]);
    expect(USER_OWNED_PORTS).to.deep.equal(['planPayments', 'paymentPlans', 'bureauFlows', 'creditScores', 'accounts']);
  });

  it("rejects a table missing a port (a new port must say whether its records are the user's)", () => {
    const { accounts: _accounts, ...withoutAccounts } = USER_DATA;
    // @ts-expect-error `accounts` has no row
    const rules: UserDataRules = withoutAccounts;
    expect(Object.keys(rules)).not.to.include('accounts');
  });

  it('rejects a row naming a method that does not delete by a user id', () => {
    // @ts-expect-error `users.delete` takes the client id and the user id
    const rules: UserDataRules = { ...USER_DATA, users: 'delete' };
    // @ts-expect-error the account repository has no `deleteForUser`
    const other: UserDataRules = { ...USER_DATA, accounts: 'deleteForUser' };
    expect(rules.users).to.equal('delete');
    expect(other.accounts).to.equal('deleteForUser');
  });

  it("calls each user-owned port's method, as a method of the port, in the table's order, and stops at the first failure", async () => {
    const calls: string[] = [];
    const port = (key: string, fail = false) => ({
      key,
      [USER_DATA[key as keyof typeof USER_DATA] as string]: function (this: { key: string }, userId: UserId) {
        calls.push(`${this.key}:${userId}`);
        return fail ? TE.left({ _tag: 'Unavailable' }) : TE.right(1);
      },
    });
    const ports = Object.fromEntries(
      STORE_PORT_KEYS.map((k) => [k, typeof USER_DATA[k] === 'string' ? port(k, k === 'bureauFlows') : {}]),
    ) as unknown as TransactionPorts;
    const result = await deleteUserData(ports, 7 as UserId)();
    expect(E.isLeft(result)).to.equal(true);
    expect(calls).to.deep.equal(['planPayments:7', 'paymentPlans:7', 'bureauFlows:7']);
  });
});
