import { createHash, timingSafeEqual } from 'node:crypto';
import type { ParameterizedContext } from 'koa';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { Client, Environment, StorePorts, isWellFormedToken } from '@debtkit/core';
import { fromDomainError } from '../api-error.js';
import { hashToken } from '../token-issuer.js';

const BEARER = /^Bearer +(\S+) *$/i;

/** The token of `Authorization: Bearer <token>`, or `undefined` when the header is absent or not of that form. */
export const bearerToken = (ctx: ParameterizedContext): string | undefined => {
  const match = BEARER.exec(ctx.get('Authorization'));
  return match?.[1];
};

/**
 * The client a token belongs to, when the token is well formed for `environment`,
 * known and not revoked. A store failure is thrown (it becomes 503), because
 * "the store is down" must not read as "your token is wrong".
 */
export const findClientByToken = async (
  store: Pick<StorePorts, 'tokens' | 'clients'>,
  environment: Environment,
  token: string,
): Promise<Client | undefined> => {
  if (!isWellFormedToken(token, environment)) return undefined;
  const record = await store.tokens.findByHash(hashToken(token))();
  if (E.isLeft(record)) throw fromDomainError(record.left);
  if (O.isNone(record.right) || record.right.value.revoked_at !== null) return undefined;
  const client = await store.clients.findById(record.right.value.client_id)();
  if (E.isLeft(client)) throw fromDomainError(client.left);
  return O.isSome(client.right) && client.right.value.environment === environment ? client.right.value : undefined;
};

/** Compare secrets in constant time: both sides are hashed first, so their lengths never leak either. */
export const secretsEqual = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
