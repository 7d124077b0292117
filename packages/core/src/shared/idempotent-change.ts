/**
 * The Idempotency-Key rule (docs/decisions/idempotency.md), owned by core and run in one place:
 * claim the key, run the change, keep its answer, so that one key is at most
 * one effect whatever fails.
 *
 * - The claim is a write of its own (a concurrent request with the same key
 *   sees it at once, and is answered `in_use`).
 * - A change's answer is kept in the change's own transaction: both commit, or
 *   neither (a store fault or a crash before the commit leaves neither, and the
 *   retry runs once). A change that commits and answers an error (a wrong
 *   one-time code) keeps that error with its writes.
 * - An error the change aborted with is kept by a small write of its own
 *   afterwards (the change wrote nothing); so is the answer of a `noChange`.
 * - Not kept (the key is released, a retry runs again): `unavailable`, and a
 *   conflict that kept losing (`retryAfterSeconds`) or a write conflict.
 *
 * The caller (the HTTP adapter) parses the key and supplies `render`, which
 * turns the answer into what is kept: the answer as it is sent.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError, StoreError } from './errors.js';
import type { IdempotencyFingerprint, StoredResponse } from './idempotency.js';
import type { ClientId } from './primitives.js';
import type { Clock } from './clock.js';
import type { IdempotencyStore } from './idempotency-store.js';
import { isWriteConflict } from './unit-of-work.js';
import type { Change } from './deps.js';

export interface KeyedRequest {
  readonly clientId: ClientId;
  readonly key: string;
  /** Method, path and body hash: a key used with another is `reused`. */
  readonly fingerprint: IdempotencyFingerprint;
  /** A new random id naming this request's claim (the caller draws it). */
  readonly claimId: string;
}

export type KeyedOutcome =
  /** The change ran (or aborted) and this is its answer, rendered; `kept` when the key holds it now. */
  | { readonly _tag: 'answered'; readonly response: StoredResponse; readonly kept: boolean }
  /** The key already holds an answer: this one, to be sent again; nothing ran. */
  | { readonly _tag: 'replayed'; readonly response: StoredResponse }
  /** The key was used with another method, path or body. */
  | { readonly _tag: 'reused' }
  /** A request with the key is still running. */
  | { readonly _tag: 'in_use' };

/** Errors a retry may not meet: never kept, the key is released. */
export const isKeptAnswer = (answer: E.Either<DomainError, unknown>): boolean =>
  E.isRight(answer) ||
  !(
    answer.left._tag === 'unavailable' ||
    isWriteConflict(answer.left) ||
    (answer.left._tag === 'conflict' && answer.left.retryAfterSeconds !== undefined)
  );

export interface KeyedDeps {
  readonly idempotency: IdempotencyStore;
  readonly clock: Clock;
}

/**
 * Run `change` under an Idempotency-Key. `Left`: nothing was committed and the
 * key is released (a store fault, a conflict that kept losing): answer it. A
 * throw (`build`, `render` or the change threw: a bug) releases the key and is rethrown.
 * @example runKeyed({ idempotency, clock })(request, () => app.recordPlanPayment(scope, planId, body), render)()
 */
export const runKeyed =
  (deps: KeyedDeps) =>
  <A, Err extends DomainError>(
    request: KeyedRequest,
    build: () => Change<A, Err>,
    render: (answer: E.Either<NoInfer<Err> | StoreError, A>) => StoredResponse,
  ): TE.TaskEither<Err | StoreError, KeyedOutcome> =>
  async () => {
    const { idempotency, clock } = deps;
    const { clientId, key, claimId } = request;
    const claim = await idempotency.claim({ clientId, key, fingerprint: request.fingerprint, claimId, now: clock.now() })();
    if (E.isLeft(claim)) return claim;
    switch (claim.right._tag) {
      case 'mismatch':
        return E.right({ _tag: 'reused' });
      case 'in_progress':
        return E.right({ _tag: 'in_use' });
      case 'completed':
        return E.right({ _tag: 'replayed', response: claim.right.response });
      case 'claimed':
        break;
    }
    // Best effort: if the store is down too, the claim frees itself after the claim timeout.
    const release = (): Promise<unknown> =>
      idempotency
        .release(clientId, key, claimId)()
        .catch(() => undefined);
    /** Keep an answer by a write of its own: the change (if any) wrote nothing. */
    const keepAlone = async (answer: E.Either<Err | StoreError, A>): Promise<E.Either<Err | StoreError, KeyedOutcome>> => {
      if (!isKeptAnswer(answer)) {
        await release();
        return E.isLeft(answer) ? answer : E.right({ _tag: 'answered', response: render(answer), kept: false });
      }
      const response = render(answer);
      const kept = await idempotency
        .complete(clientId, key, claimId, response, clock.now())()
        .catch(() => undefined);
      // An error is answered even when keeping it failed (the key then stays claimed until the claim timeout; a retry answers the same).
      if ((kept === undefined || E.isLeft(kept)) && E.isRight(answer)) {
        await release();
        return kept ?? E.left({ _tag: 'unavailable', message: 'The answer could not be kept' });
      }
      return E.right({ _tag: 'answered', response, kept: kept !== undefined && E.isRight(kept) });
    };
    try {
      const change = build();
      const spec = change.change;
      if (spec === undefined) return await keepAlone(await change());
      let rendered: StoredResponse | undefined;
      const outcome = await spec.unitOfWork.run(
        (ports) => async (): Promise<E.Either<Err | StoreError, E.Either<Err, A>>> => {
          rendered = undefined;
          const applied = await spec.apply(ports)();
          // Aborted: kept (or not) below, by a write of its own.
          if (E.isLeft(applied) || !isKeptAnswer(applied.right)) return applied;
          rendered = render(applied.right);
          // Kept in the change's own transaction: both commit, or neither.
          const kept = await ports.idempotency.complete(clientId, key, claimId, rendered, clock.now())();
          return E.isLeft(kept) ? kept : applied;
        },
        spec.turn === undefined ? undefined : { turn: spec.turn },
      )();
      if (E.isLeft(outcome)) return await keepAlone(outcome);
      if (rendered !== undefined) return E.right({ _tag: 'answered', response: rendered, kept: true });
      // Committed, and answered an error that is not kept.
      await release();
      return E.isLeft(outcome.right) ? outcome.right : E.right({ _tag: 'answered', response: render(outcome.right), kept: false });
    } catch (err) {
      await release();
      throw err;
    }
  };
