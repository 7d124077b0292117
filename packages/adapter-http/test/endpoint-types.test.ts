/**
 * The endpoint table is typed: an entry whose use case result drifts from its
 * response codec, or that reads a path id it does not declare, does not
 * compile. Each `@ts-expect-error` below fails the build (`tsc -b`) the day
 * the table stops rejecting that drift; the runtime checks only make sure the
 * well-typed declarations still build entries.
 */
import { expect } from 'chai';
import * as t from 'io-ts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { Account, User } from '@debtkit/core';
import { endpoint } from '../src/http/routes/endpoint.js';
import { paged, pagedCodec } from '../src/http/routes/paged-list.js';

const USER = { method: 'GET', path: '/api/users/:id', summary: 's', tag: 'Users', pathIds: ['id'], status: 200, errors: [] } as const;

describe('endpoint table types', () => {
  it('accepts a use case whose result is what the response codec describes', () => {
    const e = endpoint({ ...USER, response: { kind: 'user', codec: User }, run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.id }) });
    expect(e.path).to.equal('/api/users/:id');
    expect(e.handler).to.be.a('function');
  });

  it('rejects a use case whose result drifts from the response codec', () => {
    const e = endpoint({
      ...USER,
      response: { kind: 'account', codec: Account },
      // @ts-expect-error a user is not an account
      run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.id }),
    });
    expect(e.response?.codec).to.equal(Account);
  });

  it('rejects a paged list under another key than its codec', () => {
    const e = endpoint({
      ...USER,
      response: { kind: 'user_list', codec: pagedCodec('users', User) },
      // @ts-expect-error the list codec says `users`
      run: (app, i) => pipe(app.listUsers(i.client.id, {}), TE.map(paged('accounts'))),
    });
    expect(e.response?.codec.name).to.equal('UserList');
  });

  it('rejects a path id the endpoint does not declare', () => {
    const e = endpoint({
      ...USER,
      response: { kind: 'user', codec: User },
      // @ts-expect-error `user_id` is not among `pathIds`
      run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.user_id }),
    });
    expect(e.pathIds).to.deep.equal(['id']);
  });

  it('hands the path ids with their kinds (PATH_ID_KINDS): a swapped pair does not compile', () => {
    const ACCOUNT = { ...USER, path: '/api/users/:id/accounts/:account_id', pathIds: ['id', 'account_id'] } as const;
    const e = endpoint({ ...ACCOUNT, response: { kind: 'account', codec: Account }, run: (app, i) => app.getAccount({ clientId: i.client.id, userId: i.ids.id }, i.ids.account_id) });
    const swapped = endpoint({
      ...ACCOUNT,
      response: { kind: 'account', codec: Account },
      // @ts-expect-error `account_id` is an account's id, not a user's (and `id` a user's, not an account's)
      run: (app, i) => app.getAccount({ clientId: i.client.id, userId: i.ids.account_id }, i.ids.id),
    });
    expect([e.pathIds, swapped.pathIds]).to.deep.equal([['id', 'account_id'], ['id', 'account_id']]);
  });

  it('rejects a path parameter that has no kind', () => {
    const e = endpoint({
      ...USER,
      path: '/api/users/:user_id',
      // @ts-expect-error `user_id` is not in PATH_ID_KINDS (the users' path id is `id`)
      pathIds: ['user_id'],
      response: { kind: 'user', codec: User },
      run: () => TE.left({ _tag: 'not_found', message: 'none' } as never),
    });
    expect(e.path).to.equal('/api/users/:user_id');
  });

  it('rejects a literal the codec does not allow', () => {
    const e = endpoint({
      ...USER,
      response: { codec: t.type({ status: t.literal('ok') }) },
      // @ts-expect-error `status` must be the literal 'ok'
      run: () => TE.right({ status: 'fine' as string }),
    });
    expect(e.status).to.equal(200);
  });
});
