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
 * The caller (the HTTP adapter) parses the key and hands over the use case's
 * `Change` itself; what is kept is made by the `AnswerRenderer` port, bound once
 * at composition: the answer as it is sent (docs/decisions/idempotency.md; docs/decisions/transaction-owner.md).
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

/**
 * Turns the answer of a change run under a key into what is sent, and kept:
 * its status, its body's text and its API version (docs/decisions/idempotency.md: the kept answer
 * is the response as sent, replayed byte for byte). A port, bound once at
 * composition (the HTTP adapter's: its status table and versioned JSON), that
 * `runKeyed` calls inside the change's transaction. A pure function of the
 * answer, the request's `form` (what the adapter says about the answer's shape:
 * for HTTP, the route's status and response kind, and the request id) and the
 * request's API version. A throw is a bug (an answer over the size bound): the
 * change aborts, and the key is released.
 */
export interface AnswerRenderer<Form> {
  render(answer: E.Either<DomainError, unknown>, form: Form, apiVersion: string): StoredResponse;
}

export interface KeyedRequest<Form> {
  readonly clientId: ClientId;
  readonly key: string;
  /** Method, path and body hash: a key used with another is `reused`. */
  readonly fingerprint: IdempotencyFingerprint;
  /** A new random id naming this request's claim (the caller draws it). */
  readonly claimId: string;
  /** The shape of the answer, for the renderer (data the adapter defines). */
  readonly form: Form;
  /** The API version the answer is rendered in. */
  readonly apiVersion: string;
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

export interface KeyedDeps<Form> {
  readonly idempotency: IdempotencyStore;
  readonly clock: Clock;
  /** What the kept answer is made by: one renderer, bound at composition. */
  readonly renderer: AnswerRenderer<Form>;
}

/**
 * Run `change` under an Idempotency-Key. `Left`: nothing was committed and the
 * key is released (a store fault, a conflict that kept losing): answer it. A
 * throw (the change or the renderer threw: a bug) releases the key and is rethrown.
 * Bound once (`runKeyed(deps)`, at composition), then called per request with
 * data and the use case's change: no callback of the request's.
 * @example runKeyed({ idempotency, clock, renderer })(request, app.recordPlanPayment(scope, planId, body))()
 */
export const runKeyed =
  <Form>(deps: KeyedDeps<Form>) =>
  <A, Err extends DomainError>(request: KeyedRequest<Form>, change: Change<A, Err>): TE.TaskEither<Err | StoreError, KeyedOutcome> =>
  async () => {
    const { idempotency, clock, renderer } = deps;
    const { clientId, key, claimId, form, apiVersion } = request;
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
        return E.isLeft(answer) ? answer : E.right({ _tag: 'answered', response: renderer.render(answer, form, apiVersion), kept: false });
      }
      const response = renderer.render(answer, form, apiVersion);
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
      const spec = change.change;
      if (spec === undefined) return await keepAlone(await change());
      let rendered: StoredResponse | undefined;
      const outcome = await spec.unitOfWork.run(
        (ports) => async (): Promise<E.Either<Err | StoreError, E.Either<Err, A>>> => {
          rendered = undefined;
          const applied = await spec.apply(ports)();
          // Aborted: kept (or not) below, by a write of its own.
          if (E.isLeft(applied) || !isKeptAnswer(applied.right)) return applied;
          rendered = renderer.render(applied.right, form, apiVersion);
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
      return E.isLeft(outcome.right)
        ? outcome.right
        : E.right({ _tag: 'answered', response: renderer.render(outcome.right, form, apiVersion), kept: false });
    } catch (err) {
      await release();
      throw err;
    }
  };
