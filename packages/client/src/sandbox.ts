/**
 * Named helpers over the sandbox's time and webhook tools (docs/sandbox-over-time.md,
 * docs/webhook-replay.md): advance a user's test clock, send a test event to an
 * endpoint, redeliver an event, replay a window. Each is one keyed POST (so a
 * retry is safe) whose error answer is thrown as `DebtkitApiError`.
 */
import type { Client } from 'openapi-fetch';
import type { ApiVersion } from './generated/versions.js';
import type { Paths } from './paths.js';
import { DebtkitApiError, type ApiErrorBody } from './errors.js';

type Operation<P extends keyof Paths<ApiVersion>> = Paths<ApiVersion>[P] extends { post: infer O } ? O : never;
type BodyOf<P extends keyof Paths<ApiVersion>> =
  Operation<P> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type AnswerOf<P extends keyof Paths<ApiVersion>> =
  Operation<P> extends { responses: infer R }
    ? {
        [S in keyof R]: S extends 200 | 201 | 202 ? (R[S] extends { content: { 'application/json': infer B } } ? B : never) : never;
      }[keyof R]
    : never;

export type SandboxAdvanceBody = BodyOf<'/api/users/{id}/sandbox/advance'>;
export type SandboxAdvanceResult = AnswerOf<'/api/users/{id}/sandbox/advance'>;
export type EventType = BodyOf<'/api/webhook_endpoints/{endpoint_id}/test'>['type'];
export type EventRedelivery = AnswerOf<'/api/events/{event_id}/redeliver'>;
export type WebhookReplay = AnswerOf<'/api/webhook_endpoints/{endpoint_id}/replay'>;

/** Options of every helper: the request's own `Idempotency-Key` (else a new one, reused by its retries). */
export interface HelperOptions {
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
}

export interface SandboxHelpers {
  /** `POST /api/users/{id}/sandbox/advance`: moves the user's clock `months` months (1–12), paying `payments`. */
  advance(userId: number, body: SandboxAdvanceBody, options?: HelperOptions): Promise<SandboxAdvanceResult>;
  /** `POST /api/webhook_endpoints/{endpoint_id}/test`: one signed sample event of `type` (marked `"test": true`) to that endpoint. */
  sendTestEvent(endpointId: number, type: EventType, options?: HelperOptions): Promise<EventRedelivery>;
  /** `POST /api/events/{event_id}/redeliver`: a new delivery of a kept event, to one endpoint or every subscribed one. */
  redeliver(eventId: number, target?: { readonly endpointId?: number }, options?: HelperOptions): Promise<EventRedelivery>;
  /** `POST /api/webhook_endpoints/{endpoint_id}/replay`: every event of the window (at most 30 days) again to that endpoint. */
  replay(
    endpointId: number,
    window: { readonly since: Date | string; readonly until: Date | string },
    options?: HelperOptions,
  ): Promise<WebhookReplay>;
}

type Post = (path: string, init: unknown) => Promise<{ data?: unknown; error?: ApiErrorBody; response: Response }>;

export const sandboxHelpers = (client: Client<Paths<ApiVersion>, 'application/json'>): SandboxHelpers => {
  // One untyped door for the four calls below: each names its path and body from the types above.
  const post = client.POST as unknown as Post;
  const send = async <A>(
    path: string,
    pathParams: Record<string, number>,
    body: unknown,
    options: HelperOptions | undefined,
  ): Promise<A> => {
    const headers = options?.idempotencyKey === undefined ? {} : { 'Idempotency-Key': options.idempotencyKey };
    const answer = await post(path, {
      params: { path: pathParams },
      body,
      headers,
      ...(options?.signal === undefined ? {} : { signal: options.signal }),
    });
    if (answer.error !== undefined) throw new DebtkitApiError(answer.response.status, answer.error);
    return answer.data as A;
  };
  const iso = (d: Date | string): string => (typeof d === 'string' ? d : d.toISOString());
  return {
    advance: (userId, body, options) => send('/api/users/{id}/sandbox/advance', { id: userId }, body, options),
    sendTestEvent: (endpointId, type, options) =>
      send('/api/webhook_endpoints/{endpoint_id}/test', { endpoint_id: endpointId }, { type }, options),
    redeliver: (eventId, target, options) =>
      send(
        '/api/events/{event_id}/redeliver',
        { event_id: eventId },
        target?.endpointId === undefined ? {} : { endpoint_id: target.endpointId },
        options,
      ),
    replay: (endpointId, window, options) =>
      send(
        '/api/webhook_endpoints/{endpoint_id}/replay',
        { endpoint_id: endpointId },
        { since: iso(window.since), until: iso(window.until) },
        options,
      ),
  };
};
