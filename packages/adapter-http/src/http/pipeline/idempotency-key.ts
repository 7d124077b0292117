/**
 * `Idempotency-Key` on every POST under /api (docs/decisions/idempotency.md), so that a client can
 * retry a POST whose answer it did not get (a timeout, a 503) without doing it
 * twice. Runs after client authentication (keys are scoped per client) and
 * after the body is parsed (the body is part of what makes a retry "the same").
 *
 * - The first request with a key claims it in the store (atomically, across
 *   processes) and runs; its response (status, body, API-Version) is kept.
 * - The same key, method, path and an equal body (as parsed JSON) is answered
 *   the kept response byte for byte, with `Idempotent-Replayed: true`, and runs nothing.
 * - The key with another method, path or body: 422 `idempotency_key_reused`;
 *   while the first still runs: 409 `idempotency_key_in_use`.
 * - Kept: every response below 500 that an endpoint produced, except 401 and
 *   429. Anything else (5xx, 503) releases the key, so a retry runs again. A
 *   request no route answers (404, 405) never claims one.
 * - The claim is its own write (a concurrent same-key request sees it at once:
 *   409). The handler then runs inside ONE transaction (the use case's own
 *   `inTransaction` joins it) and the kept response is written in it, so the
 *   change and its key commit together or not at all (docs/decisions/idempotency.md, docs/decisions/transactions.md): a 5xx,
 *   a store fault or a crash before the commit leaves neither, and the retry
 *   runs once. A domain error (4xx) aborts the change and is kept by a small
 *   write of its own afterwards; a write conflict that exhausted its retries is
 *   answered 409 `conflict` and releases the key.
 * - Erasure (docs/decisions/tenancy.md): a kept response about a user who has been deleted
 *   since (any POST under /api/users/{id}, and the POST /api/users that created
 *   the user) is not replayed: the request is answered 404 `not_found`, as
 *   every other request about that user is, and nothing runs. So a replay
 *   never serves the user's personal data, and the key still has its one effect.
 */
import { createHash, randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { Id, isUserErased, writeConflict, type ClientId, type UserId, type Clock, type DomainError, type ErasureRegistry, type IdempotencyStore, type StoredResponse, type UnitOfWork } from '@debtkit/core';
import type { AppContext, AppMiddleware, RequestContext, RouteDef } from '../app-context.js';
import { ApiError, ERROR_TABLE, fromDomainError, toApiError } from '../api-error.js';
import { writeApiError } from './error-responder.js';
import { writeJsonText } from '../json-response.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** 1 to 255 visible ASCII characters (0x21–0x7E). */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyKeyOptions {
  readonly store: IdempotencyStore;
  /** The store's transactions: the handler and the kept response commit in one. */
  readonly unitOfWork: UnitOfWork;
  readonly clock: Clock;
  /** Erasure markers: a kept response about a deleted user is not replayed (docs/decisions/tenancy.md). */
  readonly erasures: ErasureRegistry;
  /** `API-Version` of an error answered before the version was resolved (see errorHandler). */
  readonly apiVersionFallback: string;
  /** Told about every kept response replayed (the metrics count them). */
  readonly onReplay?: () => void;
}

/** JSON with object keys sorted at every level: equal parsed bodies, equal text. */
const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

/** A request without a body and one with `{}` are different requests. */
export const bodyHash = (body: unknown): string =>
  createHash('sha256')
    .update(body === undefined ? '' : `json:${canonicalJson(body)}`)
    .digest('hex');

/** Run a store task; a `Left` (the store is down) is answered like any domain error (503). */
const runStore = async <A>(task: TE.TaskEither<DomainError, A>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw fromDomainError(result.left);
  return result.right;
};

/** What the transaction answers when the handler threw: the change is aborted (the answer is made outside). */
const HANDLER_FAILED: DomainError = { _tag: 'validation_error', message: 'The handler answered with an error' };

const isKept = (status: number): boolean => status < 500 && status !== 401 && status !== 429;

/** The response as sent, if it is one that can be kept (a JSON text or no body). */
const responseOf = (ctx: RequestContext): StoredResponse | undefined => {
  const body: unknown = ctx.body;
  const apiVersion = ctx.response.get('API-Version') || null;
  if (body === undefined || body === null) return { status: ctx.status, body: '', apiVersion };
  if (typeof body === 'string') return { status: ctx.status, body, apiVersion };
  return undefined;
};

/** A path under one user: `/api/users/{id}` and below. */
const USER_PATH = /^\/api\/users\/([1-9][0-9]{0,15})(?:\/|$)/;

/**
 * The user a kept response is about, if any: the id in a path under
 * /api/users/{id}, or the user a `POST /api/users` created (its 201 body's id).
 */
const userOfKeptResponse = (ctx: RequestContext, response: StoredResponse): UserId | undefined => {
  const inPath = USER_PATH.exec(ctx.path)?.[1];
  const id: unknown =
    inPath !== undefined
      ? Number(inPath)
      : ctx.path === '/api/users' && response.status === 201
        ? (JSON.parse(response.body) as Record<string, unknown> | null)?.['id']
        : undefined;
  return Id.is(id) ? id : undefined;
};

const replay = (ctx: RequestContext, response: StoredResponse): void => {
  if (response.body !== '') writeJsonText(ctx, response.status, response.body);
  else ctx.status = response.status;
  if (response.apiVersion === null) ctx.remove('API-Version');
  else ctx.set('API-Version', response.apiVersion);
  ctx.set(REPLAYED_HEADER, 'true');
};

/**
 * Runs the route's handler (given to the factory) under the request's
 * `Idempotency-Key`, in one transaction with the kept response: a route
 * middleware of every POST route under /api (a request no route answers
 * never reaches it), for a request that carries the header.
 */
export const idempotencyKey = (options: IdempotencyKeyOptions): ((handler: RouteDef['handler']) => AppMiddleware) => {
  const { store, unitOfWork, clock, apiVersionFallback, onReplay, erasures } = options;
  const aboutErasedUser = async (ctx: RequestContext, clientId: ClientId, response: StoredResponse): Promise<boolean> => {
    const userId = userOfKeptResponse(ctx, response);
    return userId !== undefined && runStore(isUserErased({ erasures })(clientId, userId));
  };
  // The route's handler is run here, not through `next`: a transaction that lost a
  // write conflict runs it again, and Koa's `next` may be called only once.
  return (handler) => async function idempotencyKey(ctx, next) {
    if (ctx.req.headers['idempotency-key'] === undefined) return next();
    const key = ctx.get(IDEMPOTENCY_KEY_HEADER);
    if (!VALID_KEY.test(key)) {
      throw new ApiError('validation_error', 'Invalid Idempotency-Key', [
        { path: IDEMPOTENCY_KEY_HEADER, message: 'must be 1 to 255 visible ASCII characters (0x21-0x7E)' },
      ]);
    }
    const client = ctx.state.client;
    if (client === undefined) throw new ApiError('unauthorized', 'A bearer token is required');
    const claimId = randomUUID();
    const fingerprint = { method: ctx.method, path: ctx.path, bodyHash: bodyHash(ctx.state.body) };
    const claim = await runStore(store.claim({ clientId: client.id, key, fingerprint, claimId, now: clock.now() }));
    switch (claim._tag) {
      case 'mismatch':
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with another method, path or body');
      case 'in_progress':
        throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry later');
      case 'completed':
        if (await aboutErasedUser(ctx, client.id, claim.response)) throw new ApiError('not_found', 'User not found');
        replay(ctx, claim.response);
        onReplay?.();
        return;
      case 'claimed':
        break;
    }
    const release = () => runStore(store.release(client.id, key, claimId));
    // What the handler threw, when it answered with an error: the change is aborted, the answer decided below.
    let thrown: { readonly err: unknown } | undefined;
    // Joinable: the use case's own `run` joins it, so the change and the kept response commit together.
    const outcome = await unitOfWork.runJoinable((tx) => async () => {
      thrown = undefined;
      try {
        await handler(ctx as AppContext);
      } catch (err) {
        // A use case that lost a write conflict: the whole transaction runs again.
        if (err instanceof ApiError && err.transient) return E.left(writeConflict(err.message));
        thrown = { err };
        return E.left(HANDLER_FAILED);
      }
      const response = responseOf(ctx);
      if (response === undefined || !isKept(response.status)) return E.right(false);
      // Kept in the change's own transaction: both commit, or neither.
      const kept = await tx.idempotency.complete(client.id, key, claimId, response, clock.now())();
      return E.isLeft(kept) ? kept : E.right(true);
    })();
    if (E.isRight(outcome)) {
      if (!outcome.right) await release().catch(() => undefined);
      return;
    }
    if (thrown === undefined) {
      // Nothing was committed: a store fault (503) or a conflict that kept losing (409). A retry runs again.
      await release().catch(() => undefined);
      throw fromDomainError(outcome.left);
    }
    const known = toApiError(thrown.err);
    if (known === undefined || !isKept(ERROR_TABLE[known.kind].status)) {
      // Best effort: if the store is down too, the claim frees itself after the claim timeout.
      await release().catch(() => undefined);
      throw thrown.err;
    }
    writeApiError(ctx, known, apiVersionFallback);
    const response = responseOf(ctx);
    if (response === undefined) {
      await release().catch(() => undefined);
      return;
    }
    // The domain error changed nothing; its answer is kept by a write of its own. If keeping it
    // fails (the store went down just now), the key stays claimed: a retry gets 409 until the
    // claim timeout, then runs again (and answers the same error).
    await runStore(store.complete(client.id, key, claimId, response, clock.now())).catch(() => undefined);
  };
};
