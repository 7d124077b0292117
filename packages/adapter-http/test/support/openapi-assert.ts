/**
 * Checking HTTP responses against the OpenAPI document: the HTTP tests call
 * `expectMatchesOpenApi` (or `expectResponseMatchesOpenApi` with a supertest
 * response) on what they receive, so a handler that answers a status, a field
 * or a type the document does not describe fails a test: the document cannot
 * drift from the server.
 *
 * The document is added to ajv (JSON Schema 2020-12, the dialect of OpenAPI
 * 3.1) as one schema, and each response schema is compiled in place through a
 * JSON pointer, so its `#/components/schemas/...` references resolve as they do
 * for any OpenAPI tool.
 */
import { expect } from 'chai';
import AjvModule from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { Response } from 'supertest';
import { versioning } from '@debtkit/core';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';

// ajv and ajv-formats are CommonJS with `exports.default`; under NodeNext the default import is `module.exports`.
const Ajv2020 = AjvModule.default;
const addFormats = formatsModule.default;
export type Ajv = InstanceType<typeof Ajv2020>;

export const DOCUMENT_ID = 'https://debtkit.invalid/openapi.json';

/** The OpenAPI fields outside schemas, known to ajv so the whole document can be added as a schema. */
const OPENAPI_ROOT_KEYWORDS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
  'externalDocs',
];

type Json = { readonly [key: string]: unknown };

/**
 * A strict ajv 2020 instance holding the document under `DOCUMENT_ID`. Strict
 * mode makes an unknown keyword or a misplaced one a compile error, so a
 * schema that compiles here is a real JSON Schema.
 */
export const createDocumentAjv = (document: Json = buildOpenApiDocument()): Ajv => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  ajv.addVocabulary(OPENAPI_ROOT_KEYWORDS);
  ajv.addSchema(document, DOCUMENT_ID);
  return ajv;
};

/** A JSON pointer as a URI fragment: `~` and `/` escaped, then `{id}` and the like percent-encoded. */
export const pointer = (...segments: ReadonlyArray<string>): string =>
  '#' + segments.map((s) => '/' + encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('');

/** Compile the schema at `segments` inside the document. */
export const compileAt = (ajv: Ajv, ...segments: ReadonlyArray<string>): ValidateFunction =>
  ajv.compile({ $ref: DOCUMENT_ID + pointer(...segments) });

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Matcher {
  readonly template: string;
  readonly regex: RegExp;
  /** Literal characters: a static segment wins over a parameter when both match. */
  readonly literal: number;
}

type DocumentState = {
  readonly document: Json;
  readonly ajv: Ajv;
  readonly matchers: ReadonlyArray<Matcher>;
  readonly validators: Map<string, ValidateFunction>;
};

/** One document, validator and compiled schemas per API version, made when a response of that version is first checked. */
const states = new Map<string, DocumentState>();

const documentState = (version: string = versioning.latest): DocumentState => {
  let state = states.get(version);
  if (state !== undefined) return state;
  const document = buildOpenApiDocument(version);
  const paths = document['paths'] as Record<string, unknown>;
  const matchers = Object.keys(paths).map((template) => ({
    template,
    regex: new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$'),
    literal: template.replace(/\{[^}]+\}/g, '').length,
  }));
  state = { document, ajv: createDocumentAjv(document), matchers, validators: new Map() };
  states.set(version, state);
  return state;
};

/** The document's path template for a request path (`/api/users/7?limit=2` → `/api/users/{id}`), or `undefined`. */
export const templateOf = (requestPath: string): string | undefined => {
  const path = requestPath.split('?')[0] ?? requestPath;
  const found = documentState().matchers.filter((m) => m.regex.test(path));
  found.sort((a, b) => b.literal - a.literal);
  return found[0]?.template;
};

const responsesCovered = new Set<string>();

/**
 * `METHOD /template STATUS` of every response checked so far in this process,
 * for tests that want to know the document's operations were all exercised.
 */
export const coveredResponses = (): ReadonlySet<string> => responsesCovered;

const validatorFor = (version: string, key: string, segments: ReadonlyArray<string>): ValidateFunction => {
  const { ajv, validators } = documentState(version);
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = compileAt(ajv, ...segments);
    validators.set(key, validate);
  }
  return validate;
};

const isEmptyBody = (body: unknown): boolean =>
  body === undefined || body === null || body === '' || (typeof body === 'object' && Object.keys(body as object).length === 0);

const describeBody = (body: unknown): string => {
  const text = JSON.stringify(body);
  return text === undefined ? String(body) : text.length > 600 ? `${text.slice(0, 600)}…` : text;
};

/** ajv's errors, naming the offending property where ajv keeps it in `params`. */
const errorsText = (errors: ValidateFunction['errors']): string =>
  (errors ?? [])
    .map((e) => {
      const at = e.instancePath === '' ? '(body)' : e.instancePath;
      const property = e.params as { additionalProperty?: string; missingProperty?: string };
      const named = property.additionalProperty ?? property.missingProperty;
      return `${at} ${e.message ?? e.keyword}${named === undefined ? '' : ` (${named})`}`;
    })
    .join('; ');

const check = (validate: ValidateFunction, body: unknown, what: string): void => {
  if (!validate(body)) {
    expect.fail(`${what}: the body does not match the OpenAPI document: ${errorsText(validate.errors)}\nbody: ${describeBody(body)}`);
  }
};

/**
 * Assert that answering `status` with `body` to `method path` is what the
 * OpenAPI document says. `path` is the request path (ids filled in, a query
 * string allowed). An undocumented status fails; a 204 or a HEAD must have no
 * body. A path or method no operation has (404, 405, or an earlier 401/415)
 * must be answered with an error status and the error body.
 * @example expectMatchesOpenApi('GET', '/api/users/1', 200, res.body)
 */
export const expectMatchesOpenApi = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  version: string = versioning.latest,
): void => {
  const { document } = documentState(version);
  const verb = method.toLowerCase();
  const template = templateOf(path);
  const what = `${method.toUpperCase()} ${path} → ${status}`;
  if (template === undefined) {
    // 404 with a token; before routing, authentication, versioning or body parsing may answer first (401, 400, 415, …).
    expect(status, `${what}: no operation in the OpenAPI document has this path`).to.be.at.least(400);
    check(validatorFor(version, '#Error', ['components', 'schemas', 'Error']), body, what);
    return;
  }
  const item = (document['paths'] as Record<string, Record<string, Json>>)[template] ?? {};
  if (verb === 'options' && status === 204) {
    expect(isEmptyBody(body), `${what}: OPTIONS answers without a body`).to.equal(true);
    return;
  }
  // Koa answers HEAD like GET, without the body.
  const operation = item[verb] ?? (verb === 'head' ? item['get'] : undefined);
  if (operation === undefined) {
    const documented = Object.keys(item)
      .filter((m) => METHODS.includes(m))
      .map((m) => m.toUpperCase());
    // 405 once the request reaches the router; an error raised before it (401, 415, …) is possible too.
    expect(
      status,
      `${what}: ${method.toUpperCase()} ${template} is not in the OpenAPI document (it has ${documented.join(', ')})`,
    ).to.be.at.least(400);
    check(validatorFor(version, '#Error', ['components', 'schemas', 'Error']), body, what);
    return;
  }
  const responses = operation['responses'] as Record<string, Json>;
  const response = responses[String(status)];
  expect(
    response,
    `${what}: the OpenAPI document lists only ${Object.keys(responses).join(', ')} for ${method.toUpperCase()} ${template}`,
  ).to.not.equal(undefined);
  const documentedVerb = item[verb] === undefined ? 'get' : verb;
  responsesCovered.add(`${documentedVerb.toUpperCase()} ${template} ${status}`);
  if (response?.['content'] === undefined || verb === 'head') {
    expect(isEmptyBody(body), `${what}: the document says this response has no body; got ${describeBody(body)}`).to.equal(true);
    return;
  }
  const key = `${documentedVerb} ${template} ${status}`;
  const mediaType = Object.keys(response['content'] as Json)[0] ?? 'application/json';
  check(
    validatorFor(version, key, ['paths', template, documentedVerb, 'responses', String(status), 'content', mediaType, 'schema']),
    body,
    what,
  );
};

const headerRequired = (header: Json, version: string): boolean => {
  const ref = header['$ref'];
  if (typeof ref !== 'string') return header['required'] === true;
  const name = ref.slice('#/components/headers/'.length);
  const components = (documentState(version).document['components'] as Record<string, Record<string, Json>>)['headers'] ?? {};
  return components[name]?.['required'] === true;
};

/**
 * `expectMatchesOpenApi` for a supertest response, in the version its
 * `API-Version` header names (the latest without one), plus its headers: every
 * header the document marks required for that response (`X-Request-Id`,
 * `API-Version` on `/api`, `WWW-Authenticate` on 401, `Retry-After` on 503) is
 * present, and a response with a body is JSON.
 * @example expectResponseMatchesOpenApi(await h.request.get('/api/users/1').set(h.auth))
 */
export const expectResponseMatchesOpenApi = (res: Response): void => {
  const method = res.request.method;
  const path = new URL(res.request.url).pathname;
  // A text body (`/metrics`) is checked as the string it is; supertest parses only JSON.
  const body: unknown = /^text\//.test(res.type) ? res.text : res.body;
  // Each response against ITS version's document: the one its API-Version header names (docs/decisions/versioning.md).
  const named = res.headers['api-version'];
  const version = typeof named === 'string' && versioning.isKnown(named) ? named : versioning.latest;
  expectMatchesOpenApi(method, path, res.status, body, version);
  const template = templateOf(path);
  if (template === undefined) return;
  const item = (documentState(version).document['paths'] as Record<string, Record<string, Json>>)[template] ?? {};
  const operation = item[method.toLowerCase()] ?? (method === 'HEAD' ? item['get'] : undefined);
  const response = (operation?.['responses'] as Record<string, Json> | undefined)?.[String(res.status)];
  if (response === undefined) return;
  for (const [name, header] of Object.entries((response['headers'] as Record<string, Json> | undefined) ?? {})) {
    if (headerRequired(header, version))
      expect(res.headers[name.toLowerCase()], `${method} ${path} → ${res.status}: header ${name}`).to.be.a('string');
  }
  if (response['content'] !== undefined && method !== 'HEAD') {
    const mediaType = Object.keys(response['content'] as Json)[0] ?? 'application/json';
    expect(res.headers['content-type']?.split(';')[0]).to.equal(mediaType);
  }
};
