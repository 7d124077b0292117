/**
 * Webhook endpoints of a client and their deliveries (docs/decisions/webhooks.md). Every
 * operation is scoped to the authenticated client: another client's endpoint
 * is `not_found`, as a missing one.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  conflict,
  notFound,
  validationError,
  type ValidationError,
  type NotFound,
  type QuotaExceeded,
  type Unavailable,
  type StoreError,
} from '../shared/errors.js';
import {
  CreatedWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointRecord,
  type EventRecord,
  statusPatchOf,
  subscribesTo,
  toDeliveryView,
  toWebhookEndpointView,
} from './webhook.js';
import type { ClientId, WebhookEndpointId } from '../shared/primitives.js';
import type { FanOutTurn } from './event-outbox.js';
import type { Page } from '../shared/paging.js';
import type { SecretGenerator } from '../shared/secret-generator.js';
import type { WebhookUrlPolicy } from './webhook-url-policy.js';
import type { CreateWebhookEndpointBody, PatchWebhookEndpointBody } from './webhook-requests.js';
import {
  ApplicationDeps,
  type Change,
  PageInput,
  checkQuota,
  inTransaction,
  mapPage,
  nowStamp,
  orNotFound,
  toPageRequest,
  outsideTransaction,
} from '../shared/deps.js';
import { listEvents, getEvent } from './events.use-cases.js';
import { sendTestWebhook, redeliverEvent, replayWebhookEndpoint } from './replay.use-cases.js';

/**
 * A signing secret as Standard Webhooks writes it: `whsec_` and the base64 of
 * 32 random bytes. The generator gives those bytes in base64url (the token
 * form); the same bytes in base64 differ only in two letters and the padding.
 */
export const newWebhookSecret = (secrets: SecretGenerator): string => {
  const url = secrets.secret();
  return `whsec_${url.replace(/-/g, '+').replace(/_/g, '/')}${'='.repeat((4 - (url.length % 4)) % 4)}`;
};

/**
 * Default URL policy, for a service that supplies none: https only, and no
 * host that is an IP literal or `localhost` (names are not resolved here; the
 * HTTP adapter's policy does that and also allows loopback http in sandbox).
 */
export const httpsOnlyWebhookUrls: WebhookUrlPolicy = {
  check: (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return TE.left(validationError('Invalid webhook URL', [{ path: 'url', message: 'must be an absolute URL' }]));
    }
    const host = url.hostname.toLowerCase();
    const literal = /^[0-9.]+$/.test(host) || host.startsWith('[');
    if (url.protocol !== 'https:') return TE.left(validationError('Invalid webhook URL', [{ path: 'url', message: 'must use https' }]));
    if (literal || host === 'localhost' || host.endsWith('.localhost')) {
      return TE.left(validationError('Invalid webhook URL', [{ path: 'url', message: 'must name a public host' }]));
    }
    return TE.right(undefined);
  },
};

const urlPolicy = (deps: Pick<ApplicationDeps, 'webhookUrls'>): WebhookUrlPolicy => deps.webhookUrls ?? httpsOnlyWebhookUrls;

/**
 * `version` when this build knows it; else 400 naming `api_version`, with the
 * versions it knows (an endpoint on a version nothing can render is useless).
 */
export const knownApiVersion = (deps: Pick<ApplicationDeps, 'versioning'>, version: string): TE.TaskEither<ValidationError, string> => {
  const versions = deps.versioning;
  return versions.isKnown(version)
    ? TE.right(version)
    : TE.left(
        validationError('Unknown API version', [
          { path: 'api_version', message: `must be a known API version: ${versions.known.join(', ')}` },
        ]),
      );
};

const requireEndpoint = (
  deps: Pick<ApplicationDeps, 'webhookEndpoints'>,
  clientId: ClientId,
  endpointId: WebhookEndpointId,
): TE.TaskEither<NotFound | StoreError, WebhookEndpointRecord> =>
  pipe(deps.webhookEndpoints.get(clientId, endpointId), orNotFound('Webhook endpoint'));

/**
 * One transaction (so that under an Idempotency-Key it commits with the kept
 * response): the client record is bumped, the endpoints-per-client quota
 * counted in the same snapshot, then the endpoint stored. Two concurrent
 * creations of one client both write its record, so one runs again and counts
 * the other's endpoint (shared/quotas.ts).
 */
export const createWebhookEndpoint =
  (deps: Pick<ApplicationDeps, 'clock' | 'secrets' | 'unitOfWork' | 'webhookUrls' | 'quotas' | 'versioning'>) =>
  (
    clientId: ClientId,
    body: CreateWebhookEndpointBody,
  ): Change<CreatedWebhookEndpoint, ValidationError | NotFound | QuotaExceeded | StoreError> =>
    inTransaction(deps, (tx) =>
      pipe(
        body.api_version === undefined ? TE.right<ValidationError, unknown>(undefined) : knownApiVersion(deps, body.api_version),
        TE.chainW(() => urlPolicy(deps).check(body.url)),
        TE.chainW(() => tx.clients.touch(clientId)),
        TE.chainW((found) => (found ? TE.right(undefined) : TE.left(notFound('Client not found')))),
        TE.chainW(() => checkQuota(deps, 'webhookEndpointsPerClient', tx.webhookEndpoints.countForClient(clientId))),
        // Default: the client's pinned version, read in this transaction (docs/decisions/versioning.md).
        TE.chainW(() =>
          body.api_version === undefined
            ? pipe(
                tx.clients.findById(clientId),
                orNotFound('Client'),
                TE.map((c) => c.api_version),
              )
            : TE.right(body.api_version),
        ),
        TE.chainW((apiVersion) =>
          tx.webhookEndpoints.create({
            client_id: clientId,
            url: body.url,
            events: body.events ?? ['*'],
            description: body.description ?? null,
            status: 'enabled',
            api_version: apiVersion,
            secret: newWebhookSecret(deps.secrets),
            created_at: nowStamp(deps.clock),
          }),
        ),
        TE.map((record) => ({ ...toWebhookEndpointView(record), secret: record.secret })),
      ),
    );

export const listWebhookEndpoints =
  (deps: Pick<ApplicationDeps, 'webhookEndpoints'>) =>
  (clientId: ClientId, page: PageInput): TE.TaskEither<Unavailable, Page<WebhookEndpoint>> =>
    pipe(outsideTransaction(deps.webhookEndpoints.list(clientId, toPageRequest(page))), TE.map(mapPage(toWebhookEndpointView)));

export const getWebhookEndpoint =
  (deps: Pick<ApplicationDeps, 'webhookEndpoints'>) =>
  (clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<NotFound | Unavailable, WebhookEndpoint> =>
    pipe(outsideTransaction(requireEndpoint(deps, clientId, endpointId)), TE.map(toWebhookEndpointView));

/**
 * Patch in one transaction, with compare-and-set on the endpoint's version: a
 * concurrent change to the endpoint makes this one run again from a fresh read.
 */
export const updateWebhookEndpoint =
  (deps: Pick<ApplicationDeps, 'unitOfWork' | 'webhookUrls' | 'versioning'>) =>
  (
    clientId: ClientId,
    endpointId: WebhookEndpointId,
    body: PatchWebhookEndpointBody,
  ): TE.TaskEither<ValidationError | NotFound | StoreError, WebhookEndpoint> =>
    pipe(
      body.api_version === undefined ? TE.right<ValidationError, unknown>(undefined) : knownApiVersion(deps, body.api_version),
      TE.chainW(() => (body.url === undefined ? TE.right(undefined) : urlPolicy(deps).check(body.url))),
      TE.chainW(() =>
        inTransaction(deps, (tx) =>
          pipe(
            requireEndpoint(tx, clientId, endpointId),
            TE.chainW((current) =>
              // A status the client sets resets the health fields (docs/decisions/tenancy.md): see `statusPatchOf`.
              pipe(
                tx.webhookEndpoints.update(clientId, endpointId, current.version, { ...body, ...statusPatchOf(current, body.status) }),
                orNotFound('Webhook endpoint'),
              ),
            ),
          ),
        ),
      ),
      TE.mapLeft((e) => (e._tag === 'conflict' ? conflict('The webhook endpoint changed concurrently; try again') : e)),
      TE.map(toWebhookEndpointView),
    );

/** Delete the endpoint and its deliveries, in one transaction. */
export const deleteWebhookEndpoint =
  (deps: Pick<ApplicationDeps, 'unitOfWork'>) =>
  (clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<NotFound | StoreError, void> =>
    inTransaction(deps, (tx) =>
      pipe(
        tx.webhookEndpoints.delete(clientId, endpointId),
        TE.chainW((deleted) => (deleted ? TE.right(undefined) : TE.left(notFound('Webhook endpoint not found')))),
        TE.chainW(() => tx.webhookDeliveries.deleteForEndpoint(clientId, endpointId)),
        TE.map(() => undefined),
      ),
    );

export const listWebhookDeliveries =
  (deps: Pick<ApplicationDeps, 'clock' | 'webhookDeliveries' | 'webhookEndpoints'>) =>
  (clientId: ClientId, endpointId: WebhookEndpointId, page: PageInput): TE.TaskEither<NotFound | Unavailable, Page<WebhookDelivery>> =>
    pipe(
      outsideTransaction(requireEndpoint(deps, clientId, endpointId)),
      TE.chainW(() =>
        outsideTransaction(deps.webhookDeliveries.listForEndpoint(clientId, endpointId, toPageRequest(page), deps.clock.now())),
      ),
      TE.map(mapPage(toDeliveryView)),
    );

/** What one fan-out pass did: how many events it fanned out, and the client it ended with (where the next pass starts). */
export interface FanOutPass {
  readonly events: number;
  readonly lastClient?: ClientId;
}

/**
 * One fan-out pass (docs/decisions/tenancy.md, fair webhooks): the pending events in turn
 * across clients (`EventOutbox.pendingFanOut`), and per client, with ONE read
 * of its enabled endpoints, one `createMany` of every delivery its events need
 * and one command marking them fanned out. A client with no endpoint
 * subscribed to an event's type costs the pass no delivery for it, and its
 * events, however many (a sandbox advance writes thousands), take only its own
 * turn: another client's event is fanned out in the same pass. Deliveries go
 * to the enabled endpoints that subscribe to the event's type and existed when
 * it happened. Safe to run twice or in two processes at once (the store keeps
 * one delivery per pair, and marks after it created them).
 */
export const fanOutEvents =
  (deps: Pick<ApplicationDeps, 'events' | 'webhookEndpoints' | 'webhookDeliveries' | 'clock'>) =>
  (turn: FanOutTurn): TE.TaskEither<StoreError, FanOutPass> => {
    const now = deps.clock.now();
    return pipe(
      deps.events.pendingFanOut(turn, now),
      TE.chainW((events) => {
        const byClient = new Map<ClientId, EventRecord[]>();
        for (const e of events) byClient.set(e.client_id, [...(byClient.get(e.client_id) ?? []), e]);
        return pipe(
          [...byClient.entries()],
          TE.traverseSeqArray(([clientId, theirs]) =>
            pipe(
              deps.webhookEndpoints.listEnabled(clientId),
              TE.map((endpoints) =>
                theirs.flatMap((event) =>
                  // A test event (docs/sandbox-over-time.md) has its one delivery already: it goes to no other endpoint.
                  event.test === true
                    ? []
                    : endpoints
                        .filter((e) => e.created_at <= event.created_at && subscribesTo(e, event.type))
                        .map((e) => ({
                          client_id: event.client_id,
                          endpoint_id: e.id,
                          event_id: event.id,
                          event_type: event.type,
                          created_at: event.created_at,
                          expires_at: event.expires_at,
                          next_attempt_at: event.created_at,
                        })),
                ),
              ),
              TE.chainW((deliveries) => (deliveries.length === 0 ? TE.right(undefined) : deps.webhookDeliveries.createMany(deliveries))),
              TE.chainW(() => deps.events.markFannedOut(theirs.map((e) => e.id))),
            ),
          ),
          TE.map((): FanOutPass => {
            const last = events[events.length - 1]?.client_id;
            return last === undefined ? { events: 0 } : { events: events.length, lastClient: last };
          }),
        );
      }),
    );
  };

/** Events, webhook endpoints, their deliveries, tests and replays: this feature's use cases bound to `deps`, as `createApplication` spreads them (docs/adding-a-resource.md). */
export const webhookUseCases = (deps: ApplicationDeps) => ({
  listEvents: listEvents(deps),
  getEvent: getEvent(deps),
  createWebhookEndpoint: createWebhookEndpoint(deps),
  listWebhookEndpoints: listWebhookEndpoints(deps),
  getWebhookEndpoint: getWebhookEndpoint(deps),
  updateWebhookEndpoint: updateWebhookEndpoint(deps),
  deleteWebhookEndpoint: deleteWebhookEndpoint(deps),
  listWebhookDeliveries: listWebhookDeliveries(deps),
  sendTestWebhook: sendTestWebhook(deps),
  redeliverEvent: redeliverEvent(deps),
  replayWebhookEndpoint: replayWebhookEndpoint(deps),
});
