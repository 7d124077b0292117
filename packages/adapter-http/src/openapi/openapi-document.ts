/**
 * The OpenAPI 3.1 document: generated from the codecs, never written by hand.
 * Every operation comes from the endpoint tables the router is built from:
 * `API_ENDPOINTS` (resources) and `BUILTIN_ENDPOINTS` (ping, probes, this
 * document, the admin API). The tests walk the real router and fail on any
 * route the document lacks, and validate every HTTP response against it, so it
 * cannot drift.
 *
 * Error responses are derived, not listed by hand: what every route of an area
 * can answer (authentication, versioning, body parsing, 500/503), plus the
 * codes an operation declares, each at its `ERROR_TABLE` status.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import {
  DEFAULT_PAGE_LIMIT,
  FACTOR_RULES,
  FactorName,
  Id,
  MAX_WEBHOOK_URL_LENGTH,
  EVENT_OBJECT_KIND,
  EVENT_TYPES,
  LATEST_EVENT_OBJECT_CODECS,
  Timestamp,
  describeGoodCondition,
  strictObject,
  versioning,
  type Environment,
  type EventType,
  RESPONSE_CODECS,
  type ResponseKind,
} from '@debtkit/core';
import { API_ENDPOINTS } from '../http/routes/api-endpoints.js';
import { BUILTIN_ENDPOINTS } from '../http/routes/builtin-endpoints.js';
import type { EndpointSpec } from '../http/routes/endpoint.js';
import { ERROR_TABLE, type ErrorCode } from '../http/api-error.js';
import { authOfPath, type RouteAuth, type RouteDef } from '../http/app-context.js';
import { staticJson, type StaticJson } from '../http/static-json.js';
import { schemeOf } from '../http/pipeline/client-address.js';
import { createSchemaRegistry, type JsonSchema, type SchemaRegistry } from './codec-schema.js';
import { ApiError } from '../http/api-error.js';

/** One operation as the document needs it: an endpoint's description without what it runs. */
export type DocumentedOperation = EndpointSpec;

/** Every operation the document describes, in the order it lists them. */
export const documentedOperations = (): ReadonlyArray<DocumentedOperation> => {
  const [ping, ...rest] = BUILTIN_ENDPOINTS;
  return [...(ping === undefined ? [] : [ping]), ...API_ENDPOINTS, ...rest];
};

/** `/api/users/:id` → `/api/users/{id}`. */
export const toOpenApiPath = (routerPath: string): string => routerPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const pathParams = (routerPath: string): string[] => [...routerPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);

// ---------------------------------------------------------------------------
// Errors

/** What a client reads about each code, in the responses that can carry it. */
const ERROR_DESCRIPTIONS: { readonly [C in ErrorCode]: string } = {
  validation_error: 'the request is invalid (path id, query, body), with `details`',
  unsupported_version: '`API-Version` names no known version',
  unauthorized: 'the bearer token is missing, malformed, unknown, revoked or of the other environment',
  forbidden: 'a valid token used where its role is not allowed (a client token on the admin API)',
  not_found: 'no such resource, or it belongs to another client',
  method_not_allowed: 'the path exists, the method does not',
  conflict: 'the state transition is not allowed now, or lost a concurrent race',
  payload_too_large: 'the request body is larger than 1 MiB',
  unsupported_media_type: 'the request has a body that is not `application/json`',
  bureau_error: 'the bureau finds no product match for the user',
  idempotency_key_in_use: 'a request with the same `Idempotency-Key` is still being processed; retry later',
  idempotency_key_reused: 'the `Idempotency-Key` was used with another method, path or body',
  quota_exceeded:
    'a quota is reached (accounts or payment plans per user, webhook endpoints per client); the message names the quota and its value',
  rate_limited: 'too many requests (per client), or too many failed authentications from this address; retry after `Retry-After` seconds',
  internal_server_error: 'unexpected server failure',
  service_unavailable: 'the store is unreachable; retry after `Retry-After` seconds',
};

const RULES = Object.values(ERROR_TABLE);
const ERROR_CODES: ReadonlyArray<ErrorCode> = [...new Set(RULES.map((r) => r.code))];

const ruleOf = (code: ErrorCode): (typeof RULES)[number] => {
  const rule = RULES.find((r) => r.code === code);
  if (rule === undefined) throw new Error(`openapi: error code ${code} is not in ERROR_TABLE`);
  return rule;
};

/** What every route of an area can answer, whatever it does (docs/decisions/api-conventions.md, docs/decisions/errors.md, docs/decisions/tenancy.md, docs/operations.md). */
const areaErrors = (area: RouteAuth): ReadonlyArray<ErrorCode> => {
  switch (area) {
    case 'client':
      return ['validation_error', 'unsupported_version', 'unauthorized', 'rate_limited', 'internal_server_error', 'service_unavailable'];
    case 'admin':
      // not_found: the admin API is disabled (no DEBTKIT_ADMIN_TOKEN), or no such client or token.
      // rate_limited: too many failed authentications from the address (docs/decisions/rate-limits.md).
      return ['validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal_server_error', 'service_unavailable'];
    case 'none':
      return ['internal_server_error'];
  }
};

/**
 * Body parsing runs before everything else on every request: a body that is not
 * JSON is 415 on any route; only the methods whose bodies are read can be too large.
 */
const bodyErrors = (method: DocumentedOperation['method']): ReadonlyArray<ErrorCode> =>
  method === 'GET' ? ['unsupported_media_type'] : ['unsupported_media_type', 'payload_too_large'];

/** Every POST under /api takes an `Idempotency-Key` (docs/decisions/idempotency.md). */
const takesIdempotencyKey = (op: DocumentedOperation): boolean => op.method === 'POST' && authOfPath(op.path) === 'client';
const idempotencyErrors = (op: DocumentedOperation): ReadonlyArray<ErrorCode> =>
  takesIdempotencyKey(op) ? ['idempotency_key_in_use', 'idempotency_key_reused'] : [];

const ErrorDetail = t.type({ path: t.string, message: t.string }, 'ErrorDetail');
const ErrorCodeCodec = t.keyof(Object.fromEntries(ERROR_CODES.map((c) => [c, null])) as Record<ErrorCode, null>, 'ErrorCode');
/** The error body (docs/decisions/errors.md), as `errorBody` in api-error.ts writes it. */
const ErrorBody = t.type(
  {
    error: t.intersection([
      t.type({ code: ErrorCodeCodec, message: t.string, request_id: t.string }),
      t.partial({ details: t.array(ErrorDetail) }),
    ]),
  },
  'Error',
);

// ---------------------------------------------------------------------------
// Building

/** Schemas for the core codecs written by hand (io-ts cannot show their insides). */
const namedSchemas = (name: string): JsonSchema | undefined => {
  if (name === 'WebhookUrl')
    return {
      type: 'string',
      format: 'uri',
      maxLength: MAX_WEBHOOK_URL_LENGTH,
      description: 'https:// (http:// too in sandbox); a public host in production',
    };
  if (name === 'Token')
    return { pattern: '^dk_(sandbox|live)_[A-Za-z0-9_-]{43}$', description: 'dk_sandbox_ or dk_live_ and 43 base64url characters' };
  const factor = /^FactorObject<([a-z_]+)>$/.exec(name)?.[1];
  if (factor === undefined || !FactorName.is(factor)) return undefined;
  const { kind, min, max, good } = FACTOR_RULES[factor];
  const t0 = good.threshold;
  // The amounts of each verdict, as bounds (one lower and one upper bound each, as linters like them).
  const [goodRange, poorRange]: [JsonSchema, JsonSchema] =
    good.op === '>='
      ? [
          { minimum: t0, maximum: max },
          { minimum: min, exclusiveMaximum: t0 },
        ]
      : good.op === '<='
        ? [
            { minimum: min, maximum: t0 },
            { exclusiveMinimum: t0, maximum: max },
          ]
        : good.op === '>'
          ? [
              { exclusiveMinimum: t0, maximum: max },
              { minimum: min, maximum: t0 },
            ]
          : [{ const: t0 }, { minimum: min, maximum: max, not: { const: t0 } }];
  // Two closed alternatives rather than if/then/else: every linter's example check reads them the same way.
  const alternative = (range: JsonSchema, verdict: 'Good' | 'Poor'): JsonSchema => ({
    type: 'object',
    properties: { amount: { type: kind, ...range }, factor: { type: 'string', const: verdict } },
    required: ['amount', 'factor'],
    additionalProperties: false,
  });
  return {
    type: 'object',
    description: `Good when ${describeGoodCondition(factor)}, else Poor`,
    oneOf: [alternative(goodRange, 'Good'), alternative(poorRange, 'Poor')],
  };
};

const QUERY_DESCRIPTIONS: Readonly<Record<string, JsonSchema>> = {
  limit: { description: 'Page size', default: DEFAULT_PAGE_LIMIT },
  starting_after: { description: 'The last id of the previous page; the page starts after it' },
};

const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string): JsonSchema => ({
  $ref: `#/components/${kind}/${name}`,
});

const objectProps = (codec: t.Mixed): { required: t.Props; optional: t.Props } => {
  const c = codec as t.Mixed & { _tag?: string; required?: t.Props; optional?: t.Props; props?: t.Props };
  if (c._tag === 'StrictObjectType') return { required: c.required ?? {}, optional: c.optional ?? {} };
  if (c._tag === 'InterfaceType') return { required: c.props ?? {}, optional: {} };
  if (c._tag === 'PartialType') return { required: {}, optional: c.props ?? {} };
  throw new Error(`openapi: query codec "${codec.name}" must be an object codec (strictObject, t.type or t.partial)`);
};

export const operationId = (op: DocumentedOperation): string => {
  const words = op.path
    .split('/')
    .filter((s) => s !== '' && s !== 'api')
    .map((s) => (s.startsWith(':') ? `by_${s.slice(1)}` : s))
    .flatMap((s) => s.split(/[^A-Za-z0-9]+/))
    .filter((w) => w !== '');
  return [op.method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
};

const HTTP_REASONS: Readonly<Record<number, string>> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

/** What a POST without fields accepts: no body, or `{}` (the route decodes an absent body as `{}`). */
const EmptyBody = strictObject('EmptyBody', {});

const AREA_SENTENCES: { readonly [A in RouteAuth]: string } = {
  client: 'Needs a client token (`Authorization: Bearer dk_…`).',
  admin: 'Needs the admin token; the admin API answers 404 when the server has none.',
  none: 'Needs no token.',
};

/**
 * An operation's description: the one written for it, else one made from what
 * the document knows about it (its authentication, body, paging and the errors
 * particular to it), so every operation says more than its summary.
 */
const describeOperation = (op: DocumentedOperation, area: RouteAuth): string => {
  if (op.description !== undefined) return op.description;
  const sentences = [`${op.summary}.`, AREA_SENTENCES[area]];
  if (op.body !== undefined) sentences.push(`The body is a JSON object (\`${op.body.name}\`); unknown fields are rejected.`);
  else if (op.method === 'POST') sentences.push('Takes no body (or an empty object).');
  if (op.query !== undefined && 'starting_after' in objectProps(op.query).optional) {
    sentences.push('A page of at most `limit` items, ascending by id, after `starting_after`; `has_more` says whether more follow.');
  }
  sentences.push(`Answers ${op.status} ${HTTP_REASONS[op.status] ?? 'Success'}${op.response === undefined ? ' without a body' : ''}.`);
  const particular = op.errors.filter((code) => !areaErrors(area).includes(code));
  if (particular.length > 0) sentences.push(`Besides the common errors: ${particular.map((c) => `\`${c}\``).join(', ')}.`);
  return sentences.join(' ');
};

/** `{ example }` when there is one (the examples are captured from real responses by the tests: see openapi-examples/). */
const exampleOf = (example: unknown): { example?: unknown } => (example === undefined ? {} : { example });

const buildOperation = (op: DocumentedOperation, schemas: SchemaRegistry, captured: CapturedExamples): JsonSchema => {
  const area = authOfPath(op.path);
  const examples = captured.operations[operationId(op)];
  const idSchema = schemas.schemaOf(Id);
  const parameters: JsonSchema[] = pathParams(op.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    description: name === 'id' ? 'The user id' : `The ${name.replace(/_id$/, '').replace(/_/g, ' ')} id`,
    schema: idSchema,
  }));
  if (op.query !== undefined) {
    const { required, optional } = objectProps(op.query);
    for (const [name, codec, isRequired] of [
      ...Object.entries(required).map(([n, c]) => [n, c, true] as const),
      ...Object.entries(optional).map(([n, c]) => [n, c, false] as const),
    ]) {
      const { description, ...extra } = QUERY_DESCRIPTIONS[name] ?? {};
      parameters.push({
        name,
        in: 'query',
        required: isRequired,
        ...(description === undefined ? {} : { description }),
        schema: { ...schemas.schemaOf(codec), ...extra },
      });
    }
  }
  if (area === 'client') parameters.push(ref('parameters', 'ApiVersion'), ref('parameters', 'AcceptEncoding'));
  if (takesIdempotencyKey(op)) parameters.push(ref('parameters', 'IdempotencyKey'));

  const commonHeaders: Record<string, JsonSchema> = { 'X-Request-Id': ref('headers', 'XRequestId') };
  if (area === 'client') {
    commonHeaders['API-Version'] = ref('headers', 'ApiVersion');
    // On every response to an authenticated client while the per-client limit is on (docs/decisions/rate-limits.md).
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
      commonHeaders[name] = ref('headers', name.replace(/-/g, ''));
  }

  const responses: Record<string, JsonSchema> = {
    [String(op.status)]: {
      description: HTTP_REASONS[op.status] ?? 'Success',
      headers: takesIdempotencyKey(op) ? { ...commonHeaders, 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') } : commonHeaders,
      ...(op.response === undefined
        ? {}
        : {
            content: {
              [op.responseMediaType ?? 'application/json']: {
                schema: schemas.schemaOf(op.response.codec),
                ...exampleOf(op.response.example ?? examples?.response),
              },
            },
          }),
    },
  };

  // 405: the path answers other methods than the one asked (with `Allow`); any operation's path can be asked so.
  const codes = new Set<ErrorCode>([
    ...areaErrors(area),
    ...bodyErrors(op.method),
    ...idempotencyErrors(op),
    'method_not_allowed',
    ...op.errors,
  ]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERROR_CODES) {
    if (!codes.has(code)) continue;
    const status = ruleOf(code).status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, JsonSchema> = { ...commonHeaders };
    for (const code of statusCodes) {
      for (const header of Object.keys(ruleOf(code).headers ?? {})) {
        headers[header] = ref('headers', header.replace(/-/g, ''));
      }
    }
    if (status === 405) headers['Allow'] = ref('headers', 'Allow');
    responses[String(status)] = {
      description: statusCodes.map((c) => `\`${c}\`: ${ERROR_DESCRIPTIONS[c]}`).join('; '),
      headers,
      content: {
        'application/json': {
          schema: {
            allOf: [ref('schemas', 'Error')],
            type: 'object',
            properties: { error: { type: 'object', properties: { code: { type: 'string', enum: statusCodes } } } },
          },
        },
      },
    };
  }

  const security = area === 'client' ? [{ bearer: [] }] : area === 'admin' || op.adminToken === true ? [{ adminBearer: [] }] : [];
  const body = op.body ?? (op.method === 'POST' ? EmptyBody : undefined);
  return {
    operationId: operationId(op),
    summary: op.summary,
    description: describeOperation(op, area),
    tags: [op.tag],
    security,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body === undefined
      ? {}
      : {
          requestBody: {
            // A request without a body is decoded as `{}`; the body is required when `{}` is not enough.
            required: E.isLeft(body.decode({})),
            content: { 'application/json': { schema: schemas.schemaOf(body), ...exampleOf(examples?.request) } },
          },
        }),
    responses,
  };
};

/**
 * What each statement-grade money field means (docs/decisions/payoff-and-outlook.md#statement-grade-money),
 * by component and property: a client reads the rule, not only the type. The
 * codecs are core's and carry no prose; these are added to the built schemas.
 * A property named here that its component lacks stops the build, so the table
 * cannot go stale. Components an older version does not have are skipped.
 */
const PROPERTY_DESCRIPTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Account: {
    interest_method:
      'How interest accrues: `monthly` (APR/12 on the balance the month starts with, rounded half up; the default when null), ' +
      '`daily_compound` (cards: APR/365 compounded daily between month dates), `daily_simple` (loans: balance × APR/365 × days; unpaid interest kept as `accrued_interest`)',
    minimum_payment_formula:
      "Cards: the issuer's minimum payment formula. A month's minimum is the greatest of `floor` and every term, never more than what is owed; null: the fixed minimum",
    apr_segments:
      'Cards: the balance by rate, summing to `balance`. Payments are allocated as Regulation Z §1026.53 says: the minimum to the lowest rates, ' +
      'the excess to the highest, or to a deferred-interest segment first in its last two months',
    escrow_payment:
      'Mortgages: cents of the minimum payment that go to escrow (taxes, insurance) and never reduce the debt; less than the minimum',
    accrued_interest: 'Loans (not cards): cents of unpaid interest, owed on top of `balance` and paid before principal',
    effective_apr: "`user_apr`, else the institution's APR, else the segments' balance-weighted current APR (2 decimals)",
    effective_minimum_payment: "`user_minimum_payment`, else this month's formula minimum, else the institution's minimum",
  },
  AprSegment: {
    kind: 'What the segment is',
    balance: 'Cents owed at this rate',
    apr: "The segment's rate now, percent (a promotion's rate while it runs)",
    promo_ends_on:
      'The promotion applies to the months dated before this date; from the first month dated on or after it the segment is at `go_to_apr`. Given with `go_to_apr` only',
    go_to_apr: 'The rate after the promotion, percent; also the rate a deferred-interest segment accrues at in the background',
    deferred_interest:
      'A deferred-interest promotion (§1026.16(h)(2)): interest accrues at `go_to_apr` in the background and is charged, all of it, in the first month dated on or after `promo_ends_on` if a balance is left',
    accrued_deferred_interest: 'Cents of deferred interest accrued so far (0 when null); charged if the promotion ends with a balance left',
  },
  MinimumPaymentFormula: {
    floor: 'The least minimum, cents (a smaller balance is paid in full)',
    terms: 'At least one term; the minimum is the greatest of the floor and every term',
  },
  MinimumPaymentFormulaTerm: {
    percent_of_balance: 'Percent of the balance the month starts with (≥ 0)',
    plus_interest: "Add the month's interest",
    plus_amount: 'Add a fixed amount, cents',
  },
  PaymentPlan: {
    warnings:
      'What the plan warns about, computed when it was created and stored ([] when none, and on plans stored before warnings existed)',
  },
  StrategyComparison: {
    warnings: "What this strategy's run warns about, as a plan's `warnings`",
  },
  PlanWarning: {
    account_id: 'The account the warning is about; null for `budget_below_minimums` (the whole budget)',
    code: 'What happened',
    month: 'The plan month it happens in (1 = the first)',
    amount: 'Cents: the deferred interest charged or avoided, or the amount the minimums exceed the budget by',
  },
  SandboxMonth: {
    deferred_interest:
      'Deferred interest charged this month, when a promotion ended with a balance left (not in `interest`); balance before + interest + deferred_interest − paid = balance',
  },
};

/** Descriptions of the statement-grade enums: each value, since a new one later is a breaking change. */
const COMPONENT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  InterestMethod:
    '`monthly`: APR/12, rounded half up; `daily_compound`: APR/365 compounded daily (cards); `daily_simple`: APR/365 a day, not compounded (loans)',
  SegmentKind: '`purchase`, `balance_transfer`, `cash_advance`, `promotional` (an offer with an end date), `penalty` (a penalty APR)',
  PlanWarningCode:
    '`deferred_interest_charged`: a deferred-interest promotion ends with a balance left and its interest posts; ' +
    '`deferred_interest_avoided`: the plan pays the segment before its date (`amount` = the charge avoided); ' +
    '`budget_below_minimums`: a month whose minimums exceed the budget pays the minimums (`amount` = the shortfall)',
};

/** `components` with the descriptions above added (a property of a `$ref` keeps the `$ref` beside its description, as OpenAPI 3.1 allows). */
const describeComponents = (components: Readonly<Record<string, JsonSchema>>): Record<string, JsonSchema> => {
  const described: Record<string, JsonSchema> = { ...components };
  for (const [name, properties] of Object.entries(PROPERTY_DESCRIPTIONS)) {
    const schema = described[name];
    if (schema === undefined) continue;
    const props = { ...(schema['properties'] as Record<string, JsonSchema> | undefined) };
    for (const [property, description] of Object.entries(properties)) {
      if (props[property] === undefined) throw new Error(`openapi: ${name} has no property ${property} to describe`);
      props[property] = { ...props[property], description };
    }
    described[name] = { ...schema, properties: props };
  }
  for (const [name, description] of Object.entries(COMPONENT_DESCRIPTIONS)) {
    const schema = described[name];
    if (schema !== undefined) described[name] = { ...schema, description };
  }
  return described;
};

const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Ping: 'Check a token and the round trip',
  Users: "The client's users; every user-scoped path carries the user id",
  Accounts: 'Linked debt and deposit accounts',
  'Credit Scores': 'The credit score and its six factors',
  Bureau: 'Credit-bureau authentication: consent, one-time code, identity',
  'Debt Payoff Plan': 'Avalanche and snowball payoff plans',
  Versions: 'The API versions and the changes each made (the changelog)',
  'Debt Payoff Plan Payments': 'Payments made under a plan',
  'Debt Calculator': 'Months to pay off a debt, or the payment to pay it off in given months',
  'Learning Modules': 'Short lessons by category',
  Articles: 'Articles by category',
  Events: 'What changed for the client in the last 30 days, ascending by id; the same events are POSTed to its webhook endpoints',
  Webhooks: 'Webhook endpoints, their deliveries, and (under `webhooks`) the events POSTed to them, signed per Standard Webhooks',
  Admin: 'Operators: clients and their tokens (bearer = the admin token)',
  Operations: 'Probes and this document; no token',
  Sandbox: "The sandbox over time: advance a user's clock month by month (sandbox only; 404 in production)",
};

// ---------------------------------------------------------------------------
// Webhooks

/** Which resource each event type carries in `data.object` (docs/decisions/webhooks.md), by the response kind of its endpoints: core's table. */
export const EVENT_OBJECT_KINDS: { readonly [T in EventType]: ResponseKind } = EVENT_OBJECT_KIND;

/** `account.created` → `AccountCreated`. */
const pascal = (type: string): string =>
  type
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/** The codec of a response kind: core's table, the one its endpoints answer with (docs/adding-a-resource.md). */
const codecOfKind = (kind: ResponseKind): t.Mixed => RESPONSE_CODECS[kind];

/** The payload of one event type: core's `WebhookEvent` with `type` fixed and `data.object` the resource's codec. */
export const webhookEventCodec = (type: EventType): t.Mixed =>
  t.type(
    {
      id: Id,
      type: t.literal(type),
      created_at: Timestamp,
      api_version: t.string,
      // A change of the client's own (an endpoint disabled for failing) is about no user.
      data: t.type(
        {
          user_id: type === 'webhook_endpoint.disabled' ? t.null : Id,
          object: LATEST_EVENT_OBJECT_CODECS[type] ?? codecOfKind(EVENT_OBJECT_KINDS[type]),
        },
        'event data',
      ),
    },
    `${pascal(type)}Event`,
  );

const WEBHOOK_HEADERS: ReadonlyArray<{ readonly name: string; readonly description: string; readonly schema: JsonSchema }> = [
  {
    name: 'webhook-id',
    description: 'The delivery id: the same on every attempt of one event to one endpoint; de-duplicate by it',
    schema: { type: 'string' },
  },
  { name: 'webhook-timestamp', description: 'Unix seconds when the attempt was signed', schema: { type: 'string', pattern: '^[0-9]+$' } },
  {
    name: 'webhook-signature',
    description: '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint secret (`whsec_…`)',
    schema: { type: 'string', pattern: '^v1,' },
  },
];

const buildWebhook = (type: EventType, schemas: SchemaRegistry, captured: CapturedExamples): JsonSchema => ({
  post: {
    operationId: `on${pascal(type)}`,
    summary: `Event ${type}`,
    description:
      `POSTed to every enabled endpoint subscribed to \`${type}\` (or \`*\`), as \`GET /api/events/{event_id}\` answers it: ` +
      `\`data.object\` is the ${EVENT_OBJECT_KINDS[type].replace(/_/g, ' ')}${type === 'user.deleted' ? "'s id" : ''}, in the receiving endpoint's \`api_version\` (this document: the latest). ` +
      'Signed per Standard Webhooks. Answer 2xx within 10 s; anything else is retried (`DEBTKIT_WEBHOOK_RETRY_SECONDS`).',
    tags: ['Webhooks'],
    security: [],
    parameters: WEBHOOK_HEADERS.map((h) => ({ name: h.name, in: 'header', required: true, description: h.description, schema: h.schema })),
    requestBody: {
      required: true,
      content: { 'application/json': { schema: schemas.schemaOf(webhookEventCodec(type)), ...exampleOf(captured.webhooks[type]) } },
    },
    responses: {
      '200': { description: 'Received (any 2xx answer within 10 s acknowledges the delivery; the body is ignored)' },
    },
  },
});

/** The directory of @debtkit/adapter-http and its version (src/openapi or dist/src/openapi: its package.json is up the tree either way). */
const packageRoot = (): { readonly dir: string; readonly version: string } => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === '@debtkit/adapter-http' && typeof pkg.version === 'string') return { dir, version: pkg.version };
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('openapi: package.json of @debtkit/adapter-http not found');
    dir = parent;
  }
};

const packageVersion = (): string => packageRoot().version;

/** What a version's document shows as examples: captured from real answers (test/openapi-examples.test.ts), by operation id and event type. */
export interface CapturedExamples {
  readonly operations: Readonly<Record<string, { readonly request?: unknown; readonly response?: unknown }>>;
  readonly webhooks: Readonly<Record<string, unknown>>;
}

/** Where a version's captured examples are kept: a data file of the package (shipped with it), written by the examples test. */
export const examplesFile = (version: string): string => join(packageRoot().dir, 'openapi-examples', `${version}.json`);

/**
 * A version's captured examples; none when its file is missing (the examples
 * test fails then, and writes it with `DEBTKIT_UPDATE_OPENAPI_EXAMPLES=1`).
 */
const loadExamples = (version: string): CapturedExamples => {
  const file = examplesFile(version);
  if (!existsSync(file)) return { operations: {}, webhooks: {} };
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CapturedExamples>;
  return { operations: parsed.operations ?? {}, webhooks: parsed.webhooks ?? {} };
};

const deepFreeze = <A>(value: A): A => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};

const build = (version: string): JsonSchema => {
  // An older version's document: its own codecs wherever a later change replaced one (each feature's version-change module, listed in core's registry/versioning/versions.ts).
  const schemas = createSchemaRegistry({ named: namedSchemas, substitute: (codec) => versioning.codecAt(codec.name, version) ?? codec });
  const captured = loadExamples(version);
  schemas.schemaOf(ErrorBody);
  const operations = documentedOperations();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) {
    const path = toOpenApiPath(op.path);
    const item = (paths[path] ??= {});
    const method = op.method.toLowerCase();
    if (item[method] !== undefined) throw new Error(`openapi: ${op.method} ${op.path} is described twice`);
    item[method] = buildOperation(op, schemas, captured);
  }
  const webhooks = Object.fromEntries(EVENT_TYPES.map((type) => [type, buildWebhook(type, schemas, captured)]));
  const tags = [...new Set(operations.map((o) => o.tag))].map((name) =>
    TAG_DESCRIPTIONS[name] === undefined ? { name } : { name, description: TAG_DESCRIPTIONS[name] },
  );
  const string = { type: 'string' };
  return {
    openapi: '3.1.0',
    info: {
      title: 'debtkit',
      version: packageVersion(),
      summary: 'Debt management API: credit score factors, linked accounts, bureau authentication, payoff plans',
      description: [
        'JSON over HTTP. Every `/api` request needs `Authorization: Bearer <token>`; `/admin` takes the operator token;',
        '`/healthz`, `/readyz` and `/openapi.json` need none.',
        `API versions: ${versioning.known.join(', ')} (latest ${versioning.latest}). A request is answered in the`,
        "`API-Version` header's version, else the client's pinned one.",
        `This document describes version ${version}${version === versioning.latest ? ' (the latest)' : ''};`,
        '`GET /openapi.json?version=YYYY-MM-DD` serves another, and `GET /api/versions` lists the changes between them.',
        'Money is integer cents, dates `YYYY-MM-DD`, absent values `null`. Errors are `{ "error": { "code", "message", "request_id", "details"? } }`.',
        'Unknown paths answer 404 `not_found`; a known path with another method answers 405 `method_not_allowed` with `Allow`.',
      ].join(' '),
      contact: { name: 'debtkit contributors' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // The served document names the server that serves it (see `openApiRouteFor`).
    servers: [{ url: DEFAULT_SERVER_URL, description: 'A local sandbox server (`npm start`)' }],
    tags,
    security: [{ bearer: [] }],
    paths,
    webhooks,
    components: {
      schemas: describeComponents(schemas.components()),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A client token: dk_sandbox_… or dk_live_…, matching the server' },
        adminBearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'The operator token (DEBTKIT_ADMIN_TOKEN); without it the admin API answers 404',
        },
      },
      parameters: {
        ApiVersion: {
          name: 'API-Version',
          in: 'header',
          required: false,
          description: "The API version to answer in; default: the client's pinned version",
          schema: { type: 'string', enum: [...versioning.known] },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a retry safe (kept 24 h per client): the same key, method, path and body is answered the first response again, ' +
            'byte for byte, with `Idempotent-Replayed: true`, and does nothing. Another method, path or body: 422 `idempotency_key_reused`; ' +
            'while the first runs: 409 `idempotency_key_in_use`. Responses of 500 and above, 401 and 429 are not kept (a retry runs again).',
          schema: { type: 'string', pattern: '^[\\x21-\\x7E]{1,255}$' },
        },
        AcceptEncoding: {
          name: 'Accept-Encoding',
          in: 'header',
          required: false,
          description: 'Bodies of 1 KiB or more are compressed (gzip, br) when allowed here',
          schema: string,
        },
      },
      headers: {
        XRequestId: {
          description:
            'The request id (a client-sent `X-Request-Id` matching ^[A-Za-z0-9._-]{1,128}$ is kept); also in error bodies and logs',
          required: true,
          schema: string,
        },
        ApiVersion: {
          description: 'The API version the response is in',
          required: true,
          schema: { type: 'string', enum: [...versioning.known] },
        },
        WWWAuthenticate: { description: 'Bearer', required: true, schema: string },
        RetryAfter: { description: 'Seconds to wait before retrying', required: true, schema: string },
        IdempotentReplayed: {
          description: '`true` on a response replayed for a repeated `Idempotency-Key` (the request ran nothing)',
          required: false,
          schema: { type: 'string', enum: ['true'] },
        },
        Allow: { description: 'The methods the path answers, OPTIONS included', required: true, schema: string },
        RateLimitLimit: {
          description: "Requests per second of the client's budget (absent when the limit is off)",
          required: false,
          schema: string,
        },
        RateLimitRemaining: { description: 'Requests left in the current one-second window', required: false, schema: string },
        RateLimitReset: { description: 'Seconds until the window resets', required: false, schema: string },
      },
    },
  };
};

/** Where `npm start` listens by default (docs/operations.md). */
const DEFAULT_SERVER_URL = 'http://127.0.0.1:3000';

const memo = new Map<string, JsonSchema>();

/**
 * The OpenAPI 3.1 document of API version `version` (default: the latest),
 * built once per process and version, and frozen. An unknown version throws
 * (`versioning.isKnown` first).
 * @example buildOpenApiDocument().paths['/api/users/{id}'].get.responses['200']
 * @example buildOpenApiDocument('2024-07-01').components.schemas.PaymentPlan // with `schedule`
 */
export const buildOpenApiDocument = (version: string = versioning.latest): JsonSchema => {
  if (!versioning.isKnown(version)) throw new Error(`openapi: unknown API version "${version}"`);
  let document = memo.get(version);
  if (document === undefined) memo.set(version, (document = deepFreeze(build(version))));
  return document;
};

export interface OpenApiRouteOptions {
  readonly environment: Environment;
  /** The address clients reach this server at (`DEBTKIT_PUBLIC_URL`, else the listen address). */
  readonly publicUrl?: string;
}

/** A Host header that can stand in a URL as it is (a name or an IP literal, and a port). */
const PLAIN_HOST = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$/;

const ENVIRONMENT_DESCRIPTIONS: { readonly [E in Environment]: string } = {
  sandbox: 'This server: sandbox (test data, the simulated credit bureau; tokens start with dk_sandbox_)',
  production: 'This server: production (live data; tokens start with dk_live_)',
};

/** Origins whose documents are kept, compressed (when no address is configured): a Host header is the client's to choose. */
const MAX_ORIGINS = 16;

/** Where the server URL goes in a rendered document: a string no document contains (JSON-escaped where it lands). */
const URL_MARK = '\u0000debtkit-server-url\u0000';

/**
 * `GET /openapi.json`'s handler: the document with `servers` naming this
 * server, in its environment. With a known address the JSON is made once;
 * without one (a server on PORT=0, an embedding app) the request's own origin is
 * used (its scheme as trusted proxies report it), when its Host header is a
 * plain host name. Each is answered from memory, compressed once per coding,
 * with an ETag (docs/decisions/proxies.md: `staticJson`).
 *
 * A Host header costs no rendering: each version's text is made once, cut where
 * the server URL goes, and a document for an origin is the two halves around its
 * URL (a copy, about 1 ms, not a 40 ms JSON encoding). The documents of the first
 * `MAX_ORIGINS` origins are kept and compressed once per coding; any other
 * origin (a client trying Host headers) is answered its document uncompressed,
 * and nothing is kept or compressed for it, so no sequence of Host headers
 * costs more than copying the document.
 */
export const serveOpenApi = (options: OpenApiRouteOptions): RouteDef['handler'] => {
  const description = ENVIRONMENT_DESCRIPTIONS[options.environment];
  const halves = new Map<string, readonly [string, string]>();
  const textFor = (version: string, url: string): string => {
    let cut = halves.get(version);
    if (cut === undefined) {
      const text = JSON.stringify({ ...buildOpenApiDocument(version), servers: [{ url: URL_MARK, description }] });
      const mark = JSON.stringify(URL_MARK);
      const at = text.indexOf(mark);
      if (at < 0 || text.indexOf(mark, at + 1) >= 0)
        throw new Error('serveOpenApi: the server URL mark is not in the document exactly once');
      halves.set(version, (cut = [text.slice(0, at), text.slice(at + mark.length)]));
    }
    return `${cut[0]}${JSON.stringify(url)}${cut[1]}`;
  };
  const documents = new Map<string, StaticJson>();
  const keptOrigins = new Set<string>();
  const documentFor = (version: string, url: string): StaticJson => {
    const key = `${version} ${url}`;
    let document = documents.get(key);
    if (document !== undefined) return document;
    if (!keptOrigins.has(url)) {
      if (keptOrigins.size >= MAX_ORIGINS) return staticJson(textFor(version, url), { compress: false });
      keptOrigins.add(url);
    }
    documents.set(key, (document = staticJson(textFor(version, url))));
    return document;
  };
  const knownList = versioning.known.join(', ');
  return async function serveOpenApiDocument(ctx) {
    // `?version=`: each version's own document (docs/decisions/versioning.md); the latest without one.
    const asked: unknown = ctx.query['version'];
    const version = asked === undefined ? versioning.latest : typeof asked === 'string' && versioning.isKnown(asked) ? asked : undefined;
    if (version === undefined) {
      const named =
        typeof asked === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(asked)
          ? `"${asked}" is not a known API version`
          : 'version is not a known API version';
      throw new ApiError('unsupported_version', `${named}; known versions: ${knownList}`);
    }
    const url = options.publicUrl ?? (PLAIN_HOST.test(ctx.host) ? `${schemeOf(ctx)}://${ctx.host}` : DEFAULT_SERVER_URL);
    await documentFor(version, url).answer(ctx);
  };
};
