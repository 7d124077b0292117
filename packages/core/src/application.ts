/**
 * `createApplication`, which binds every feature's use cases (each
 * `(deps) => (input) => TaskEither<E, Output>` or a `Change<Output, E>`, `E` naming the error tags it can return (docs/decisions/errors.md), exported by the feature's
 * `index.ts`) to one set of ports.
 */
import type { ApplicationDeps } from './shared/deps.js';
import type { Versioning } from './shared/versioning/version-change.js';
import { versioning } from './registry/versioning/versions.js';
import { sampleEventObject } from './registry/webhook-samples.js';
import type { SampleEventObject } from './webhooks/sample-events.js';
import type { EventRedaction } from './webhooks/event-redaction.js';
import { redactEvent } from './registry/erasure.js';
import type { UserDataDelete } from './shared/user-data.js';
import { deleteUserData } from './registry/user-data.js';
import type { SandboxDeps } from './sandbox/sandbox-computations.js';
import { bindFeatureUseCases, type FeatureUseCases } from './registry/features.js';
import { minimumOnlyMemo } from './payment-plans/payoff-plan.js';

export * from './shared/deps.js';
// The features' entries of `ApplicationDeps` (module augmentation): re-exported so every importer of the package sees them.
export * from './registry/application-deps.js';
export * from './shared/requests.js';

/** Every use case bound to `deps`: what an embedding service or the HTTP adapter calls. */
export const createApplication = (
  given: Omit<ApplicationDeps, 'versioning' | 'webhookSamples' | 'eventRedaction' | 'userDataDelete'> & {
    readonly versioning?: Versioning;
    readonly webhookSamples?: SampleEventObject;
    readonly eventRedaction?: EventRedaction;
    readonly userDataDelete?: UserDataDelete;
  } & SandboxDeps,
): FeatureUseCases => {
  // The memo every account view shares (the pure domain keeps none of its own); the production
  // versioning (the registry's table of every feature's changes) unless another is given.
  const deps: ApplicationDeps & SandboxDeps = {
    minimumOnly: minimumOnlyMemo(),
    ...given,
    versioning: given.versioning ?? versioning,
    webhookSamples: given.webhookSamples ?? sampleEventObject,
    eventRedaction: given.eventRedaction ?? redactEvent,
    userDataDelete: given.userDataDelete ?? deleteUserData,
  };
  // One bundle per feature, each named by its manifest (registry/features.ts): a use case added to
  // a feature is added to its bundle, a feature to the features' list, not here.
  return bindFeatureUseCases(deps);
};

export type Application = ReturnType<typeof createApplication>;
export * from './shared/transactions.js';
export * from './shared/idempotent-change.js';
