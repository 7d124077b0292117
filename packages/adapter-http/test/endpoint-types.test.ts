/**
 * The endpoint table is typed: an entry whose use case result drifts from its
 * response codec (its kind's, in core's `RESPONSE_CODECS`), whose codec beside a
 * kind is not that kind's shape, or that reads a path id it does not declare, does not
 * compile. Each `@ts-expect-error` below fails the build (`tsc -b`) the day
 * the table stops rejecting that drift; the runtime checks only make sure the
 * well-typed declarations still build entries.
 */
import { expect } from 'chai';
import * as t from 'io-ts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { Account, RESPONSE_CODECS, User } from '@debtkit/core';
import { endpoint } from '../src/http/routes/endpoint.js';
import { paged } from '../src/http/routes/paged-list.js';

const USER = { method: 'GET', path: '/api/users/:id', summary: 's', tag: 'Users', pathIds: ['id'], status: 200, errors: [] } as const;

describe('endpoint table types', () => {
  it('accepts a use case whose result is what its response kind\'s codec describes, and takes the codec from the kind', () => {
    const e = endpoint({ ...USER, response: { kind: 'user' }, run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.id }) });
    expect(e.path).to.equal('/api/users/:id');
    expect(e.handler).to.be.a('function');
    expect(e.response?.codec).to.equal(RESPONSE_CODECS.user);
    expect(e.response?.codec).to.equal(User);
  });

  it('accepts a codec beside a kind that describes more than the kind, and keeps it', () => {
    const Secretive = t.intersection([User, t.type({ secret: t.string })], 'SecretiveUser');
    const e = endpoint({
      ...USER,
      response: { kind: 'user', codec: Secretive },
      run: (app, i) => pipe(app.getUser({ clientId: i.client.id, userId: i.ids.id }), TE.map((u) => ({ ...u, secret: 's' }))),
    });
    expect(e.response?.codec).to.equal(Secretive);
  });

  it('rejects a codec beside a kind that is not the kind\'s shape', () => {
    const e = endpoint({
      ...USER,
      // @ts-expect-error an account is not a user
      response: { kind: 'user', codec: Account },
      run: (app, i) => app.getAccount({ clientId: i.client.id, userId: i.ids.id }, i.ids.id),
    });
    expect(e.response?.codec).to.equal(Account);
  });

  it('rejects a use case whose result drifts from the response codec', () => {
    const e = endpoint({
      ...USER,
      response: { kind: 'account' },
      // @ts-expect-error a user is not an account
      run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.id }),
    });
    expect(e.response?.codec).to.equal(Account);
  });

  it('rejects a paged list under another key than its codec', () => {
    const e = endpoint({
      ...USER,
      response: { kind: 'user_list' },
      // @ts-expect-error the list codec says `users`
      run: (app, i) => pipe(app.listUsers(i.client.id, {}), TE.map(paged('accounts'))),
    });
    expect(e.response?.codec.name).to.equal('UserList');
  });

  it('rejects a path id the endpoint does not declare', () => {
    const e = endpoint({
      ...USER,
      response: { kind: 'user' },
      // @ts-expect-error `user_id` is not among `pathIds`
      run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.user_id }),
    });
    expect(e.pathIds).to.deep.equal(['id']);
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
