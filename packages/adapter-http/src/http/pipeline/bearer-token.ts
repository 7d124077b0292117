import { createHash, timingSafeEqual } from 'node:crypto';
import type { ParameterizedContext } from 'koa';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { Client, ClientAccess, Environment } from '@debtkit/core';
import { fromDomainError } from '../api-error.js';
import { requestHeader } from '../request-header.js';

const BEARER = /^Bearer +(\S+) *$/i;

/** The token of `Authorization: Bearer <token>`, or `undefined` when the header is absent or not of that form. */
export const bearerToken = (ctx: ParameterizedContext): string | undefined => {
  return BEARER.exec(requestHeader(ctx.req, 'authorization'))?.[1];
};

/** Core's `authenticateToken` use case: what the authentication middleware asks. */
export type Authenticate = ClientAccess['authenticateToken'];

/** A token's client when it is known at once (the token cache), else `undefined`: asked before `Authenticate`, with no promise. */
export type KnownClient = (environment: Environment, token: string) => Client | undefined;

/**
 * The client a token belongs to (core decides: well formed, known, not revoked,
 * of this environment). A store failure is thrown (it becomes 503), because
 * "the store is down" must not read as "your token is wrong".
 */
export const findClientByToken = (authenticate: Authenticate, environment: Environment, token: string): Promise<Client | undefined> =>
  // A promise chain, not an async function: every request runs it, one step fewer (docs/performance.md).
  authenticate(environment, token)().then((found) => {
    if (E.isLeft(found)) throw fromDomainError(found.left);
    return O.toUndefined(found.right);
  });

/** Compare secrets in constant time: both sides are hashed first, so their lengths never leak either. */
export const secretsEqual = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
