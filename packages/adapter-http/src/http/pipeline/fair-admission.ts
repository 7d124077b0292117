import type { AppMiddleware, RequestContext } from '../app-context.js';
import { ApiError } from '../api-error.js';
import type { Admission, AdmissionQueue, Release } from '../admission-queue.js';

export interface FairAdmissionOptions {
  readonly queue: AdmissionQueue;
  /** Told the seconds each admitted request waited for its slot (0 when it had one at once): the queue-time histogram. */
  readonly onAdmitted?: (waitedSeconds: number) => void;
  /** Told about every request refused after waiting `queueWaitMs` (the metrics count it as a 429 of limit `queue`). */
  readonly onTimedOut?: () => void;
}

/** `Retry-After` of a request that waited its whole allowance: by then its client's earlier requests are finishing. */
const RETRY_AFTER_SECONDS = '1';

/** Hold `release` until the response has been written or its connection closed (listened to; the response is not touched). */
const holdUntilWritten = (ctx: RequestContext, release: Release): void => {
  const res = ctx.res;
  if (res.writableFinished || res.destroyed) {
    release();
    return;
  }
  res.once('finish', release);
  res.once('close', release);
};

/**
 * Resolves after the event loop's next poll for I/O (`setImmediate`). A queued
 * request is admitted when another request's response finishes, and that
 * happens in the finished request's own turn (its `finish` is a next-tick
 * callback): without this step, a client's queue would run request after
 * request in one turn, each finish admitting the next, and no other client's
 * request could even be read until the queue was empty. Measured with a client
 * flooding from 128 connections: busy stretches of 88–150 ms of its served
 * requests without a poll for I/O (docs/performance.md, round 5).
 */
const afterPoll = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Wait for a slot; a client that leaves while waiting gives its place up. */
const waitForSlot = (ctx: RequestContext, queue: AdmissionQueue, clientKey: string): Promise<Admission> => {
  const left = new AbortController();
  const onClose = (): void => left.abort();
  ctx.res.once('close', onClose);
  return queue.acquire(clientKey, left.signal).finally(() => ctx.res.off('close', onClose));
};

/**
 * The fair share of the process (docs/decisions/tenancy.md), for authenticated `/api`
 * requests: after the client's rate limit and before the body is read, a
 * request takes a slot of the admission queue (admission-queue.ts): at most
 * DEBTKIT_MAX_IN_PROGRESS in the process and DEBTKIT_CLIENT_CONCURRENCY per
 * client; over either, it waits in its client's own queue, admitted round
 * robin across clients, or gets 429 `rate_limited` with `Retry-After` after
 * DEBTKIT_QUEUE_WAIT_MS. The slot is held until the response has been written
 * (its `finish`, or `close` when the client left), so compression and sending
 * count. Other areas (health, metrics, admin) pass straight on: they are not a
 * client's and must answer while clients queue.
 */
export const fairAdmission = (options: FairAdmissionOptions): AppMiddleware => {
  const { queue, onAdmitted, onTimedOut } = options;
  /** A request its client's or the process's limit holds back: it waits its turn in its client's queue. */
  const queued = async (ctx: RequestContext, next: Parameters<AppMiddleware>[1], clientKey: string): Promise<void> => {
    const admission = await waitForSlot(ctx, queue, clientKey);
    if (!admission.admitted) {
      if (admission.reason === 'timed_out') onTimedOut?.();
      const seconds = Math.round(admission.waitedMs / 100) / 10;
      throw new ApiError(
        'rate_limited',
        `Too many requests in progress for this client; waited ${seconds} s for a slot; retry after ${RETRY_AFTER_SECONDS} s`,
        undefined,
        {
          'Retry-After': RETRY_AFTER_SECONDS,
        },
      );
    }
    onAdmitted?.(admission.waitedMs / 1000);
    holdUntilWritten(ctx, admission.release);
    // Admitted from the queue: go on after the event loop has read what else has arrived (other clients' requests).
    await afterPoll();
    return next();
  };
  // A plain function, not `async`: a step that passes a request on returns `next()`'s own promise, without an async function's wrapper (docs/performance.md, round 5).
  return function fairAdmission(ctx, next) {
    const client = ctx.state.client;
    if (ctx.state.area !== 'client' || client === undefined) return next();
    const clientKey = String(client.id);
    const now = queue.tryAcquire(clientKey);
    if (now === undefined) return queued(ctx, next, clientKey);
    onAdmitted?.(0);
    holdUntilWritten(ctx, now);
    return next();
  };
};
