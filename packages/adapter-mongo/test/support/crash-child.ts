/**
 * The child process of mongo-crash.test.ts: opens the store at argv[2]
 * (database argv[3]) and pays 100 from account argv[6] of user argv[5] of client
 * argv[4] in one transaction, with its event. It says "wrote" on stdout once the
 * writes are sent (the commit comes next); the test kills it with SIGKILL.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { AccountId, ClientId, IsoDate, Timestamp, UserId, Cents } from '@debtkit/core';
import { mongoUnitOfWork, openMongoContext } from '../../src/index.js';

const [url, dbName, clientId, userId, accountId] = process.argv.slice(2);
if (url === undefined || dbName === undefined || clientId === undefined || userId === undefined || accountId === undefined) {
  throw new Error('usage: crash-child <url> <db> <client id> <user id> <account id>');
}
const ctx = await openMongoContext(url, { dbName, serverSelectionTimeoutMS: 2000 });
const uow = mongoUnitOfWork(ctx);
const result = await uow.run((tx) =>
  pipe(
    tx.accounts.applyPayment(Number(userId) as UserId, Number(accountId) as AccountId, {
      amount: 100 as Cents,
      date: '2026-03-15' as IsoDate,
      updatedOn: '2026-03-15' as IsoDate,
    }),
    TE.chain(() =>
      tx.events.append({
        client_id: Number(clientId) as ClientId,
        type: 'account.updated',
        created_at: '2026-03-15T12:00:00.000Z' as Timestamp,
        api_version: '2024-07-01',
        data: { user_id: Number(userId) as UserId, object: { paid: 100 } },
        expires_at: '2999-01-01T00:00:00.000Z' as Timestamp,
      }),
    ),
    TE.chainFirst(() => TE.fromIO(() => void process.stdout.write('wrote\n'))),
  ),
)();
process.stdout.write(`${JSON.stringify(result)}\n`);
await ctx.close();
