/**
 * @debtkit/client: a typed client for the debtkit API, one set of types per API
 * version (packages/client/README.md).
 */
export {
  createClient,
  unwrap,
  type ClientOptions,
  type DebtkitClient,
  type ErrorCodeOf,
  type ListItem,
  type ListPath,
  type PaginateOptions,
  type Paths,
  type Schemas,
} from './client.js';
export { API_VERSIONS, LATEST_API_VERSION, LISTS, type ApiVersion, type VersionTypes } from './generated/versions.js';
export {
  DebtkitApiError,
  DebtkitConnectionError,
  DebtkitTimeoutError,
  WebhookVerificationError,
  isApiError,
  type ApiErrorBody,
  type WebhookVerificationCode,
} from './errors.js';
export { DEFAULT_RETRY_POLICY, type RetryEnvironment, type RetryPolicy } from './retrying-fetch.js';
export { signWebhook, verifyWebhook, type SignedWebhook, type VerifyOptions, type WebhookEvent, type WebhookHeaders } from './webhooks.js';
export type {
  EventRedelivery,
  EventType,
  HelperOptions,
  SandboxAdvanceBody,
  SandboxAdvanceResult,
  SandboxHelpers,
  WebhookReplay,
} from './sandbox.js';
