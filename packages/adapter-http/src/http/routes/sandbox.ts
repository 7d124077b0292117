/**
 * The sandbox feature's endpoints (404 in production) (docs/sandbox-over-time.md): ONE list of `API_ENDPOINTS` (api-endpoints.ts;
 * docs/adding-a-resource.md). Paths, methods and shapes of the spec's endpoints are exactly the spec's.
 */
import { SandboxAdvanceBody } from '@debtkit/core';
import { type Endpoint, endpoint } from './endpoint.js';
import { scope, USER_ERRORS } from './user-scope.js';

export const SANDBOX_ENDPOINTS: ReadonlyArray<Endpoint> = [
  endpoint({
    method: 'POST',
    path: '/api/users/:id/sandbox/advance',
    summary: "Advance a sandbox user's clock month by month (sandbox only)",
    description:
      'Records the target date on the user, then applies each month in its own transaction: interest on every open loan (APR / 12, rounded half up ' +
      'to the cent), the payments (`minimum`, `none`, or the schedule month of `payment_plan_id`, recorded as plan payments), a payments_history ' +
      'code, and a new credit score from the sandbox bureau. 1 to 12 months a call. A request that failed midway keeps the months it applied; ' +
      'its retry, or any later advance, continues to the same target and no further. 409 when an open loan with a balance has no APR or minimum. ' +
      'In production: 404.',
    tag: 'Sandbox',
    pathIds: ['id'],
    body: SandboxAdvanceBody,
    status: 200,
    response: { kind: 'sandbox_advance' },
    errors: [...USER_ERRORS, 'conflict', 'bureau_error'],
    run: (app, i) => app.advanceSandbox(scope(i), i.body),
  }),
];
