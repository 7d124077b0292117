/**
 * The features' own entries of `ApplicationDeps` (shared/deps.ts declares what every feature
 * shares; docs/architecture.md, "Three floors"): added here, on the registry floor, by module
 * augmentation, so the kernel names no feature and every use case still sees one `ApplicationDeps`.
 */
import type { CreditBureau } from '../bureau/credit-bureau.js';
import type { WebhookUrlPolicy } from '../webhooks/webhook-url-policy.js';
import type { Versioning } from '../shared/versioning/version-change.js';
import type { SampleEventObject } from '../webhooks/sample-events.js';
import type { EventRedaction } from '../webhooks/event-redaction.js';
import type { Computations } from '../payment-plans/computations.js';
import type { MinimumOnlyMonths } from '../payment-plans/payoff-plan.js';
import type { ContentRepository } from '../content/content-repository.js';
import type { AccountViews } from '../accounts/account.js';

declare module '../shared/deps.js' {
  interface ApplicationDeps {
    readonly bureau: CreditBureau;
    /** Which webhook URLs may be registered; default: https only, no IP literal that is not public (webhook-endpoints.ts). */
    readonly webhookUrls?: WebhookUrlPolicy;
    /**
     * The API versions answers and events are rendered with: given by the registry (`createApplication`
     * fills in the production `versioning` when none is given); no feature imports the production table.
     */
    readonly versioning: Versioning;
    /** The sample objects test webhooks send: given by the registry (`createApplication` fills in `sampleEventObject`, registry/webhook-samples.ts). */
    readonly webhookSamples: SampleEventObject;
    /** An erased user's event with its personal fields emptied: given by the registry (`createApplication` fills in `redactEvent`, registry/erasure.ts). */
    readonly eventRedaction: EventRedaction;
    /** Where plan schedules, comparisons and outlooks are computed; default: in this thread (computations.ts). */
    readonly computations?: Computations;
    /**
     * Sandbox (docs/sandbox-over-time.md): users show their `sandbox_date` and their clock can
     * be advanced. Default false (production: the field is absent, the path 404).
     */
    readonly sandboxClock?: boolean;
    /** How an account's `expected_payoff_date` months are worked out; `createApplication` gives one bounded memo (domain/payoff-plan.ts `minimumOnlyMemo`). */
    readonly minimumOnly?: MinimumOnlyMonths;
    /**
     * Account views remembered by `accountViewKey` (an account's id, version and its owner's today), for
     * the account read; default none: each read builds its view. The HTTP adapter hands in a bounded one.
     */
    readonly accountViews?: AccountViews;
    /** Learning modules and articles; default: the content shipped with core (`shippedContent`), not a store port. */
    readonly content?: ContentRepository;
  }
}
