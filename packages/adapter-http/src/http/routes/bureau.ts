/**
 * The bureau feature's endpoints (docs/api/reference.md): ONE list of `API_ENDPOINTS` (api-endpoints.ts;
 * docs/adding-a-resource.md). Paths, methods and shapes of the spec's endpoints are exactly the spec's.
 */
import { ConsentBody, IdentityBody, InvokeBureauBody, OtpBody } from '@debtkit/core';
import { type Endpoint, endpoint } from './endpoint.js';
import { scope, USER_ERRORS } from './user-scope.js';

export const BUREAU_ENDPOINTS: ReadonlyArray<Endpoint> = [
  endpoint({
    method: 'GET',
    path: '/api/users/:id/bureau/auth',
    summary: 'Bureau authentication status',
    tag: 'Bureau',
    pathIds: ['id'],
    status: 200,
    response: { kind: 'bureau_status' },
    errors: USER_ERRORS,
    run: (app, i) => app.getBureauStatus(scope(i)),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/bureau/auth/invoke',
    summary: 'Start bureau authentication',
    tag: 'Bureau',
    pathIds: ['id'],
    body: InvokeBureauBody,
    status: 200,
    response: { kind: 'bureau_step' },
    errors: [...USER_ERRORS, 'bureau_error', 'conflict'],
    run: (app, i) => app.invokeBureau(scope(i), i.body),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/bureau/auth/consent',
    summary: 'Give consent to the bureau',
    tag: 'Bureau',
    pathIds: ['id'],
    body: ConsentBody,
    status: 200,
    response: { kind: 'bureau_status' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.consentBureau(scope(i)),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/bureau/auth/validate_otp',
    summary: 'Validate the one-time code',
    tag: 'Bureau',
    pathIds: ['id'],
    body: OtpBody,
    status: 200,
    response: { kind: 'bureau_status' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.validateBureauOtp(scope(i), i.body),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/bureau/auth/identity',
    summary: 'Answer the identity questions',
    tag: 'Bureau',
    pathIds: ['id'],
    body: IdentityBody,
    status: 200,
    response: { kind: 'bureau_status' },
    errors: [...USER_ERRORS, 'conflict', 'bureau_error'],
    run: (app, i) => app.submitBureauIdentity(scope(i), i.body),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/bureau/auth/abort',
    summary: 'Abort bureau authentication',
    tag: 'Bureau',
    pathIds: ['id'],
    status: 200,
    response: { kind: 'bureau_status' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.abortBureau(scope(i)),
  }),
];
