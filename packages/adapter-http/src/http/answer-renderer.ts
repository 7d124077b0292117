/**
 * The HTTP adapter's `AnswerRenderer`, core's port (shared/idempotent-change.ts):
 * the answer of a change run under an Idempotency-Key, as it is sent and kept
 * (docs/decisions/idempotency.md: a replay answers these bytes). A
 * pure function of the answer, the route's shape, the request id and the
 * request's API version: an error by the status table and the error body
 * (api-error.ts), a success by the route's status and its versioned JSON (core's
 * `versioning`, through the render cache when the app has one). Bound once, at
 * composition (main/container.ts, `HTTP.AnswerRenderer`); core calls it inside
 * the change's transaction (docs/decisions/transaction-owner.md).
 *
 * A route without a key writes the same answer on the response itself
 * (`answer` in routes/endpoint.ts, `writeApiError` in pipeline/error-responder.ts):
 * test/keyed-answer.test.ts checks that both give the same bytes.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  MAX_RESPONSE_BODY_BYTES,
  renderContextOf,
  versioning,
  type AnswerRenderer,
  type ResponseKind,
  type StoredResponse,
} from '@debtkit/core';
import { ERROR_TABLE, errorBody, fromDomainError } from './api-error.js';
import { ResponseTooLarge, passesBytes } from './json-response.js';
import type { RenderCache } from './render-cache.js';
import { boundedJsonText } from './routes/paged-list.js';
import type { AnswerForm, AnswerShape } from './pipeline/keyed-answer.js';

export interface AnswerRendererOptions {
  /** The app's render cache (render-cache.ts); absent, every answer is rendered. */
  readonly renderCache?: RenderCache;
}

/** `text`, unless it passes the 1 MiB bound (docs/decisions/tenancy.md): then a bug, refused as `writeJsonText` refuses it. */
const bounded = (text: string, shape: AnswerShape, bytes?: number): string => {
  if (bytes === undefined ? passesBytes(text, MAX_RESPONSE_BODY_BYTES) : bytes > MAX_RESPONSE_BODY_BYTES) {
    throw new ResponseTooLarge(
      `refused to keep a ${bytes ?? Buffer.byteLength(text)}-byte body for ${shape.method} ${shape.path}: over the 1 MiB bound`,
    );
  }
  return text;
};

/** The renderer the composition binds: one per app. */
export const answerRenderer = (options: AnswerRendererOptions = {}): AnswerRenderer<AnswerForm> => {
  const { renderCache } = options;
  /** The JSON text of a success body of `kind`, in `version`. */
  const versioned = (shape: AnswerShape, kind: ResponseKind, value: unknown, version: string): string => {
    const context = renderContextOf(value);
    if (renderCache === undefined) return bounded(boundedJsonText(versioning.render(kind, value, version, context)), shape);
    const rendered = renderCache.render(kind, value, version, undefined, context);
    if ('text' in rendered) return bounded(rendered.text, shape, rendered.bytes);
    return bounded(rendered.data.toString('utf8'), shape, rendered.data.length);
  };
  return {
    render(answer, form, apiVersion): StoredResponse {
      const { shape } = form;
      if (E.isLeft(answer)) {
        const error = fromDomainError(answer.left);
        return {
          status: ERROR_TABLE[error.kind].status,
          body: bounded(JSON.stringify(errorBody(error, form.requestId)), shape),
          apiVersion,
        };
      }
      const { response } = shape;
      const value = answer.right;
      if (response === undefined) return { status: 204, body: '', apiVersion };
      if (response.kind === undefined) return { status: shape.status, body: bounded(JSON.stringify(value) ?? '', shape), apiVersion };
      if (response.inRequestVersion === true) return { status: shape.status, body: bounded(boundedJsonText(value), shape), apiVersion };
      return { status: shape.status, body: versioned(shape, response.kind, value, apiVersion), apiVersion };
    },
  };
};
