/**
 * The endpoint table is typed: an entry whose use case result drifts from its
 * response codec (its kind's, in core's `RESPONSE_CODECS`), whose codec beside a
 * kind is not that kind's shape, that reads a path id it does not declare, or whose
 * `errors` are not exactly the codes its use case can answer (docs/decisions/errors.md), does not
 * compile. Each `@ts-expect-error` below fails the build (`tsc -b`) the day
 * the table stops rejecting that drift; the runtime checks only make sure the
 * well-typed declarations still build entries.
 */
import { expect } from 'chai';
import * as t from 'io-ts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { Account, CreateUserBody, RESPONSE_CODECS, User } from '@debtkit/core';
import { endpoint, type Endpoint } from '../src/http/routes/endpoint.js';
import { paged } from '../src/http/routes/paged-list.js';

const USER = {
  method: 'GET',
  path: '/api/users/:id',
  summary: 's',
  tag: 'Users',
  pathIds: ['id'],
  status: 200,
  errors: ['not_found', 'validation_error'],
} as const;

describe('endpoint table types', () => {
  it("accepts a use case whose result is what its response kind's codec describes, and takes the codec from the kind", () => {
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
      run: (app, i) =>
        pipe(
          app.getUser({ clientId: i.client.id, userId: i.ids.id }),
          TE.map((u) => ({ ...u, secret: 's' })),
        ),
    });
    expect(e.response?.codec).to.equal(Secretive);
  });

  it("rejects a codec beside a kind that is not the kind's shape", () => {
    const e = endpoint({
      ...USER,
      // @ts-expect-error an account is not a user
      response: { kind: 'user', codec: Account },
      // A use case of no error of its own: only the route's are listed.
      errors: ['validation_error'],
      run: () => TE.right(undefined as unknown as t.TypeOf<typeof Account>),
    });
    expect(e.response?.codec).to.equal(Account);
  });

  it('rejects a use case whose result drifts from the response codec', () => {
    const e = endpoint({
      ...USER,
      response: { kind: 'account' },
      // A use case that does not fit is not read for its errors: only the route's own are listed.
      errors: ['validation_error'],
      // @ts-expect-error a user is not an account
      run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.id }),
    });
    expect(e.response?.codec).to.equal(Account);
  });

  it('rejects a paged list under another key than its codec', () => {
    const e = endpoint({
      ...USER,
      response: { kind: 'user_list' },
      errors: ['validation_error'],
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

  it('hands the path ids with their kinds (PATH_ID_KINDS): a swapped pair does not compile', () => {
    const ACCOUNT = { ...USER, path: '/api/users/:id/accounts/:account_id', pathIds: ['id', 'account_id'] } as const;
    const e = endpoint({
      ...ACCOUNT,
      response: { kind: 'account', codec: Account },
      run: (app, i) => app.getAccount({ clientId: i.client.id, userId: i.ids.id }, i.ids.account_id),
    });
    const swapped = endpoint({
      ...ACCOUNT,
      response: { kind: 'account', codec: Account },
      // @ts-expect-error `account_id` is an account's id, not a user's (and `id` a user's, not an account's)
      run: (app, i) => app.getAccount({ clientId: i.client.id, userId: i.ids.account_id }, i.ids.id),
    });
    expect([e.pathIds, swapped.pathIds]).to.deep.equal([
      ['id', 'account_id'],
      ['id', 'account_id'],
    ]);
  });

  it('rejects a path parameter that has no kind', () => {
    const e = endpoint({
      ...USER,
      path: '/api/users/:user_id',
      // @ts-expect-error `user_id` is not in PATH_ID_KINDS (the users' path id is `id`)
      pathIds: ['user_id'],
      response: { kind: 'user', codec: User },
      errors: ['validation_error'],
      run: () => TE.left({ _tag: 'not_found', message: 'none' } as never),
    });
    expect(e.path).to.equal('/api/users/:user_id');
  });

  it('rejects a literal the codec does not allow', () => {
    const e = endpoint({
      ...USER,
      response: { codec: t.type({ status: t.literal('ok') }) },
      errors: ['validation_error'],
      // @ts-expect-error `status` must be the literal 'ok'
      run: () => TE.right({ status: 'fine' as string }),
    });
    expect(e.status).to.equal(200);
  });

  describe('its errors (docs/decisions/errors.md)', () => {
    const getUser = { ...USER, response: { kind: 'user', codec: User } } as const;

    it("accepts exactly the codes of its use case (503 is every /api route's) and the route's own validation_error", () => {
      const e: Endpoint = endpoint({ ...getUser, run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.id }) });
      expect(e.errors).to.deep.equal(['not_found', 'validation_error']);
    });

    it('rejects a list without a code its use case returns', () => {
      // @ts-expect-error getUser answers not_found
      const e: Endpoint = endpoint({
        ...getUser,
        errors: ['validation_error'],
        run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.id }),
      });
      expect(e.errors).to.deep.equal(['validation_error']);
    });

    it('rejects a list with a code its use case cannot return', () => {
      // @ts-expect-error getUser reads outside a transaction: it cannot answer conflict
      const e: Endpoint = endpoint({
        ...getUser,
        errors: ['not_found', 'validation_error', 'conflict'],
        run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.id }),
      });
      expect(e.errors).to.include('conflict');
    });

    it("rejects a list without the route's own validation_error", () => {
      // @ts-expect-error every route decodes its path ids, query and body
      const e: Endpoint = endpoint({
        ...getUser,
        errors: ['not_found'],
        run: (app, i) => app.getUser({ clientId: i.client.id, userId: i.ids.id }),
      });
      expect(e.errors).to.deep.equal(['not_found']);
    });

    it('reads the errors of a change: a write that can lose to concurrent changes lists conflict', () => {
      const create = {
        method: 'POST',
        path: '/api/users',
        summary: 's',
        tag: 'Users',
        pathIds: [],
        body: CreateUserBody,
        status: 201,
        response: { kind: 'user', codec: User },
      } as const;
      const e: Endpoint = endpoint({
        ...create,
        errors: ['validation_error', 'conflict'],
        run: (app, i) => app.createUser(i.client.id, i.body),
      });
      // @ts-expect-error createUser commits a transaction: 409 when it keeps losing
      const without: Endpoint = endpoint({ ...create, errors: ['validation_error'], run: (app, i) => app.createUser(i.client.id, i.body) });
      expect([e.errors, without.errors]).to.deep.equal([['validation_error', 'conflict'], ['validation_error']]);
    });

    it('lists service_unavailable on a route of no area, which has no area-wide 503', () => {
      const open = { ...getUser, auth: 'none' } as const;
      const e: Endpoint = endpoint({
        ...open,
        errors: ['not_found', 'validation_error', 'service_unavailable'],
        run: (app) => app.getUser({ clientId: 1 as never, userId: 1 as never }),
      });
      // @ts-expect-error getUser can answer unavailable, and no area lists 503 for this route
      const without: Endpoint = endpoint({ ...open, run: (app) => app.getUser({ clientId: 1 as never, userId: 1 as never }) });
      expect([e.errors.length, without.errors.length]).to.deep.equal([3, 2]);
    });
  });
});
