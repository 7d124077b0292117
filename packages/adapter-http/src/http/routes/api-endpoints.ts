/**
 * Every resource endpoint of the API (docs/api/reference.md): ONE list per feature, each in its file
 * (`routes/<feature>.ts`, docs/adding-a-resource.md), in the order the router and the OpenAPI document
 * take them, and the kernel's own (the API versions). Paths, methods and shapes of the spec's endpoints
 * are exactly the spec's.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { apiVersionList, versioning } from '@debtkit/core';
import { type Endpoint, endpoint } from './endpoint.js';
import { USER_ENDPOINTS } from './users.js';
import { ACCOUNT_ENDPOINTS } from './accounts.js';
import { CREDIT_SCORE_ENDPOINTS } from './credit-scores.js';
import { BUREAU_ENDPOINTS } from './bureau.js';
import { PAYMENT_PLAN_ENDPOINTS } from './payment-plans.js';
import { CALCULATOR_ENDPOINTS } from './calculator.js';
import { CONTENT_ENDPOINTS } from './content.js';
import { SANDBOX_ENDPOINTS } from './sandbox.js';
import { WEBHOOK_API_ENDPOINTS } from './webhook-endpoints.js';

/** The kernel's endpoints: the API versions. */
const VERSION_ENDPOINTS: ReadonlyArray<Endpoint> = [
  endpoint({
    method: 'GET',
    path: '/api/versions',
    summary: 'The API versions, newest first, with their changes (the changelog)',
    tag: 'Versions',
    pathIds: [],
    description:
      'Every version, newest first, with its release date and the description of each backward-incompatible change it made; `latest` is the ' +
      "version new clients are pinned to, `pinned` the calling client's. docs/api/changelog.md is generated from the same list.",
    status: 200,
    response: { kind: 'api_versions' },
    errors: ['validation_error'],
    run: (_app, i) => TE.right(apiVersionList(versioning, i.client.api_version)),
  }),
];

export const API_ENDPOINTS: ReadonlyArray<Endpoint> = [
  ...USER_ENDPOINTS,
  ...ACCOUNT_ENDPOINTS,
  ...CREDIT_SCORE_ENDPOINTS,
  ...BUREAU_ENDPOINTS,
  ...PAYMENT_PLAN_ENDPOINTS,
  ...CALCULATOR_ENDPOINTS,
  ...CONTENT_ENDPOINTS,
  ...SANDBOX_ENDPOINTS,
  ...VERSION_ENDPOINTS,
  // Events and webhook endpoints (docs/decisions/webhooks.md)
  ...WEBHOOK_API_ENDPOINTS,
];
