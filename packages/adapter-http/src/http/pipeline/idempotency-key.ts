/**
 * `Idempotency-Key` on every POST under /api (docs/decisions/idempotency.md), so that a client can
 * retry a POST whose answer it did not get (a timeout, a 503) without doing it
 * twice. The rule itself (claim the key, run the change, keep the answer in the
 * change's transaction) is core's `runKeyed`, bound here once with the
 * renderer the composition made (answer-renderer.ts). This step parses the
 * header and tells the route's handler that the request is keyed
 * (`ctx.state.underIdempotencyKey`); the handler decodes the request and hands
 * back the use case's change, not run, with the shape of its answer
 * (`ctx.state.keyedAnswer`); this step gives both to `runKeyed` as data and
 * answers what it returns. What is sent is what the key keeps: the renderer's
 * output, written here as a replay writes it (docs/decisions/transaction-owner.md).
 *
 * - Runs after client authentication (keys are scoped per client) and after
 *   the body is parsed (the body is part of what makes a retry "the same").
 * - The same key, method, path and an equal body (as parsed JSON) is answered
 *   the kept response byte for byte, with `Idempotent-Replayed: true`, and runs nothing.
 * - The key with another method, path or body: 422 `idempotency_key_reused`;
 *   while the first still runs: 409 `idempotency_key_in_use`.
 * - A store fault (503) or a conflict that kept losing (409 with Retry-After)
 *   is not kept: the key is released, and a retry runs again. A request no
 *   route answers (404, 405) never claims one.
 * - Erasure (docs/decisions/tenancy.md): a kept response about a user who has been deleted
 *   since (any POST under /api/users/{id}, and the POST /api/users that created
 *   the user) is not replayed: the request is answered 404 `not_found`, as
 *   every other request about that user is, and nothing runs. So a replay
 *   never serves the user's personal data, and the key still has its one effect.
 */
import { hash, randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import {
  UserId,
  isUserErased,
  noChange,
  runKeyed,
  type AnswerRenderer,
  type Change,
  type ClientId,
  type Clock,
  type DomainError,
  type ErasureRegistry,
  type IdempotencyStore,
  type StoredResponse,
} from '@debtkit/core';
import type { RequestContext } from '../app-context.js';
import type { RouteMiddleware } from '../router.js';
import { ApiError, fromDomainError, toApiError } from '../api-error.js';
import { writeJsonText } from '../json-response.js';
import type { AnswerForm, KeyedAnswer } from './keyed-answer.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** 1 to 255 visible ASCII characters (0x21–0x7E). */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyKeyOptions {
  readonly store: IdempotencyStore;
  readonly clock: Clock;
  /** Erasure markers: a kept response about a deleted user is not replayed (docs/decisions/tenancy.md). */
  readonly erasures: ErasureRegistry;
  /** What makes the answer that is sent and kept: the one renderer, bound at composition (answer-renderer.ts). */
  readonly renderer: AnswerRenderer<AnswerForm>;
  /** The API version of an answer when the request's was not resolved (as errorResponder's). */
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
// One-shot `hash` (no Hash object per request; the same digest as `createHash(...).update(...).digest('hex')`).
export const bodyHash = (body: unknown): string => hash('sha256', body === undefined ? '' : `json:${canonicalJson(body)}`, 'hex');

/** Run a store task; a `Left` (the store is down) is answered like any domain error (503). */
const runStore = async <A>(task: TE.TaskEither<DomainError, A>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw fromDomainError(result.left);
  return result.right;
};

/** Each route pattern's segments: a literal, or the name of a parameter. */
const PATTERN_SEGMENTS = new Map<string, ReadonlyArray<string | { readonly param: string }>>();

/**
 * The request's path as the route it matched spells it: the route's pattern
 * with each parameter as the router decoded it, re-encoded. Every spelling the
 * router accepts for one route and the same parameters (a trailing `/`, a
 * percent-encoded id, upper- or lower-case escapes) is one path here, so a key
 * is tied to what the request is about, not to how its path was written; the
 * plain spelling is the path itself (keys kept before this rule still match).
 */
export const routedPath = (pattern: string, params: Readonly<Record<string, string>>): string => {
  let segments = PATTERN_SEGMENTS.get(pattern);
  if (segments === undefined) {
    // Split once per pattern (the route table's, so the map holds one entry per route).
    segments = pattern.split('/').map((segment) => (segment.startsWith(':') ? { param: segment.slice(1) } : segment));
    PATTERN_SEGMENTS.set(pattern, segments);
  }
  let path = '';
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (i > 0) path += '/';
    path += typeof segment === 'string' ? segment : encodeURIComponent(params[segment.param] ?? '');
  }
  return path;
};

/** A path under one user: `/api/users/{id}` and below (a routed path, so the id is plainly spelled). */
const USER_PATH = /^\/api\/users\/([1-9][0-9]{0,15})(?:\/|$)/;

/**
 * The user a kept response is about, if any: the id in a path under
 * /api/users/{id}, or the user a `POST /api/users` created (its 201 body's id).
 * `path` is the routed path (`routedPath`), whatever spelling the request used.
 */
const userOfKeptResponse = (path: string, response: StoredResponse): UserId | undefined => {
  const inPath = USER_PATH.exec(path)?.[1];
  const id: unknown =
    inPath !== undefined
      ? Number(inPath)
      : path === '/api/users' && response.status === 201
        ? (JSON.parse(response.body) as Record<string, unknown> | null)?.['id']
        : undefined;
  return UserId.is(id) ? id : undefined;
};

/**
 * Answer `response`, the renderer's (just kept) or a replayed one: the same status, bytes
 * and headers either way (`API-Version`: the request's, set by the apiVersion step, is the
 * one the renderer was given; a replay sets the kept one).
 */
const send = (ctx: RequestContext, response: StoredResponse): void => {
  if (response.body !== '') writeJsonText(ctx, response.status, response.body);
  else ctx.status = response.status;
};

const replay = (ctx: RequestContext, response: StoredResponse): void => {
  send(ctx, response);
  if (response.apiVersion === null) ctx.remove('API-Version');
  else ctx.set('API-Version', response.apiVersion);
  ctx.set(REPLAYED_HEADER, 'true');
};

export type { KeyedAnswer };

/**
 * An error the handler threw that is an answer of the endpoint's (a bad path
 * id, query or body), as a change that changes nothing: kept under the key as
 * any answer. Anything else is rethrown (nothing was claimed yet).
 */
const decodingFailure = (err: unknown): Change<never> => {
  const known = toApiError(err);
  if (known === undefined || known.kind !== 'validation_error') throw err;
  const error: DomainError =
    known.details === undefined
      ? { _tag: 'validation_error', message: known.message }
      : { _tag: 'validation_error', message: known.message, details: known.details };
  return noChange(TE.left(error));
};

/**
 * The route middleware of every POST route under /api: for a request that
 * carries the header, checks it, lets the handler hand over its change
 * (`ctx.state.keyedAnswer`), and answers it under the key with core's `runKeyed`.
 */
export const idempotencyKey = (options: IdempotencyKeyOptions): RouteMiddleware => {
  const { store, clock, onReplay, erasures, renderer, apiVersionFallback } = options;
  // Bound once: per request, core is handed data and the use case's change, no callback.
  const keyed = runKeyed({ idempotency: store, clock, renderer });
  const aboutErasedUser = async (path: string, clientId: ClientId, response: StoredResponse): Promise<boolean> => {
    const userId = userOfKeptResponse(path, response);
    return userId !== undefined && runStore(isUserErased({ erasures })(clientId, userId));
  };
  const underKey = async (ctx: Parameters<RouteMiddleware>[0], next: Parameters<RouteMiddleware>[1]): Promise<void> => {
    const key = ctx.get(IDEMPOTENCY_KEY_HEADER);
    if (!VALID_KEY.test(key)) {
      throw new ApiError('validation_error', 'Invalid Idempotency-Key', [
        { path: IDEMPOTENCY_KEY_HEADER, message: 'must be 1 to 255 visible ASCII characters (0x21-0x7E)' },
      ]);
    }
    const client = ctx.state.client;
    if (client === undefined) throw new ApiError('unauthorized', 'A bearer token is required');
    // The route the router matched (this step runs as its route middleware) and its decoded parameters.
    const route = ctx.state.route;
    if (route === undefined) throw new Error(`idempotencyKey: ${ctx.method} ${ctx.path} runs outside a route`);
    ctx.state.underIdempotencyKey = true;
    let handed: KeyedAnswer | undefined;
    try {
      // The handler decodes and hands back its change, not run (routes/endpoint.ts).
      await next();
      handed = ctx.state.keyedAnswer;
    } catch (err) {
      // A request that does not decode is the endpoint's answer too, and kept (anything else goes on).
      handed = { change: decodingFailure(err), shape: { method: ctx.method, path: route, status: 400 } };
    }
    // A route that answered without its key would have run the change twice on a retry: a bug, never silent.
    if (handed === undefined) throw new Error(`idempotencyKey: ${ctx.method} ${ctx.path} answered without its Idempotency-Key`);
    const path = routedPath(route, ctx.params);
    const outcome = await keyed(
      {
        clientId: client.id,
        key,
        claimId: randomUUID(),
        fingerprint: { method: ctx.method, path, bodyHash: bodyHash(ctx.state.body) },
        form: { shape: handed.shape, requestId: ctx.state.requestId },
        apiVersion: ctx.state.apiVersion ?? apiVersionFallback,
      },
      handed.change,
    )();
    if (E.isLeft(outcome)) throw fromDomainError(outcome.left);
    switch (outcome.right._tag) {
      case 'reused':
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with another method, path or body');
      case 'in_use':
        throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry later');
      case 'replayed':
        if (await aboutErasedUser(path, client.id, outcome.right.response)) throw new ApiError('not_found', 'User not found');
        replay(ctx, outcome.right.response);
        onReplay?.();
        return;
      case 'answered':
        // The renderer's output: what was kept is what is sent.
        send(ctx, outcome.right.response);
        return;
    }
  };
  // A plain function, not `async`: a POST without a key passes on with `next()`'s own promise (docs/performance.md, round 5).
  return function idempotencyKey(ctx, next) {
    return ctx.req.headers['idempotency-key'] === undefined ? next() : underKey(ctx, next);
  };
};
