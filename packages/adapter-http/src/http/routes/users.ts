/**
 * The users feature's endpoints (docs/api/reference.md): ONE list of `API_ENDPOINTS` (api-endpoints.ts;
 * docs/adding-a-resource.md). Paths, methods and shapes of the spec's endpoints are exactly the spec's.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { CreateUserBody, PageQuery, PatchUserBody } from '@debtkit/core';
import { type Endpoint, endpoint } from './endpoint.js';
import { scope, USER_ERRORS } from './user-scope.js';
import { paged } from './paged-list.js';

export const USER_ENDPOINTS: ReadonlyArray<Endpoint> = [
  endpoint({
    method: 'POST',
    path: '/api/users',
    summary: 'Create a user',
    tag: 'Users',
    pathIds: [],
    body: CreateUserBody,
    status: 201,
    response: { kind: 'user' },
    errors: ['validation_error', 'conflict'],
    run: (app, i) => app.createUser(i.client.id, i.body),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users',
    summary: 'List users',
    tag: 'Users',
    pathIds: [],
    query: PageQuery,
    status: 200,
    response: { kind: 'user_list' },
    errors: ['validation_error'],
    run: (app, i) => pipe(app.listUsers(i.client.id, i.query), TE.map(paged('users'))),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id',
    summary: 'Retrieve a user',
    tag: 'Users',
    pathIds: ['id'],
    status: 200,
    response: { kind: 'user' },
    errors: USER_ERRORS,
    run: (app, i) => app.getUser(scope(i)),
  }),
  endpoint({
    method: 'PATCH',
    path: '/api/users/:id',
    summary: 'Update a user',
    tag: 'Users',
    pathIds: ['id'],
    body: PatchUserBody,
    status: 200,
    response: { kind: 'user' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.updateUser(scope(i), i.body),
  }),
  endpoint({
    method: 'DELETE',
    path: '/api/users/:id',
    summary: 'Delete a user and everything the user owns',
    tag: 'Users',
    pathIds: ['id'],
    status: 204,
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.deleteUser(scope(i)),
  }),
];
