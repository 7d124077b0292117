import type { Change, ResponseKind } from '@debtkit/core';

/**
 * What a route's answer looks like, as the renderer needs it (answer-renderer.ts):
 * its method and path pattern, its success status and, for a body, its response
 * kind (rendered for the request's API version). An endpoint of the tables
 * (`EndpointSpec`) is one: static data, the same for every request of the route.
 */
export interface AnswerShape {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** Absent for 204; without `kind` the body is written as it is; `inRequestVersion`, already in the request's version. */
  readonly response?: { readonly kind?: ResponseKind; readonly inRequestVersion?: true };
}

/**
 * What the HTTP adapter's renderer is told about an answer besides the answer
 * and the API version: the route's shape, and the request id an error body names.
 */
export interface AnswerForm {
  readonly shape: AnswerShape;
  readonly requestId: string;
}

/**
 * What a route's handler hands over under the request's Idempotency-Key
 * (`ctx.state.keyedAnswer`; docs/decisions/idempotency.md): the use case's
 * change, not run, and the shape of its answer. Data, no callback: the
 * Idempotency-Key step (./idempotency-key.ts) gives the change to core's
 * `runKeyed`, whose renderer (bound once at composition) makes the answer that
 * is sent and kept. In a module of its own so that `app-context.ts` names it
 * without importing the middleware (no import cycle; docs/architecture.md "The
 * dependency rule, measured").
 */
export interface KeyedAnswer {
  readonly change: Change<unknown>;
  readonly shape: AnswerShape;
}
