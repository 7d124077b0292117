import type { Change } from '@debtkit/core';

/**
 * What a route's handler answers with under the request's Idempotency-Key
 * (`ctx.state.idempotency`, set by `idempotencyKey` in ./idempotency-key.ts;
 * docs/decisions/idempotency.md). In a module of its own so that
 * `app-context.ts` names it without importing the middleware (no import cycle;
 * docs/architecture.md "The dependency rule, measured").
 */
export interface KeyedAnswer {
  /**
   * Answer with the change `build` describes, run by core's `runKeyed` under
   * the key; `render` writes an answer (a success) on the response. A
   * `validation_error` thrown by `build` (a request that does not decode) is
   * the endpoint's answer too, and kept.
   */
  answer<A>(build: () => Change<A>, render: (value: A) => void): Promise<void>;
}
