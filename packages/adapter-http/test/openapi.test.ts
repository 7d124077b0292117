/**
 * The OpenAPI document: a valid OpenAPI 3.1 document whose schemas are valid
 * JSON Schema 2020-12, covering exactly the routes the router has, served
 * without a token, and describing what the server really answers: every
 * response of a full scenario (every operation, success and error) is checked
 * against it and against the codec it was generated from.
 */
import { expect } from 'chai';
import supertest from 'supertest';
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type Koa from 'koa';
import {
  Cents,
  CreditScore,
  Id,
  IsoDate,
  PORTS,
  PlanPaymentBody,
  StorePorts,
  Timestamp,
  User,
  nullable,
  strictObject,
  unavailable,
  versioning,
} from '@debtkit/core';
import { createMemoryStore, seedDemo, type DemoSeed } from '@debtkit/adapter-memory';
import { compose } from '../src/main/composition.js';
import { resolve } from '../src/main/container.js';
import { offlineResolveHost } from './support/webhook-harness.js';
import { routesOf } from '../src/http/app.js';
import type { AppState } from '../src/http/app-context.js';
import { ERROR_TABLE } from '../src/http/api-error.js';
import { API_ENDPOINTS, BUILTIN_ENDPOINTS } from '../src/http/routes/index.js';
import { generateToken } from '../src/http/token-issuer.js';
import { createSchemaRegistry } from '../src/openapi/codec-schema.js';
import { buildOpenApiDocument, toOpenApiPath } from '../src/openapi/openapi-document.js';
import {
  compileAt,
  coveredResponses,
  createDocumentAjv,
  expectMatchesOpenApi,
  expectResponseMatchesOpenApi,
  templateOf,
} from './support/openapi-assert.js';
import AjvModule from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

const Ajv2020 = AjvModule.default;
const addFormats = formatsModule.default;

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the document: method, path template and the operation object. */
const operations = (): Array<{ method: string; path: string; op: Json }> =>
  Object.entries(doc['paths'] as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ method, path, op: op as Json })),
  );

const ADMIN_TOKEN = 'admin-token-for-openapi-tests-0123';
const clock = { now: () => new Date('2026-03-15T12:00:00.000Z') };

interface Setup {
  readonly app: Koa<AppState>;
  readonly request: ReturnType<typeof supertest>;
  readonly demo: DemoSeed;
  readonly auth: { Authorization: string };
  readonly admin: { Authorization: string };
}

/** The full app, composed as the server composes it, on a seeded store (default: a fresh memory store). */
const setup = async (given?: StorePorts): Promise<Setup> => {
  const { app, store, container } = await compose({
    config: { adminToken: ADMIN_TOKEN, rateLimit: 0, authFailureLimit: 0 },
    clock,
    webhooks: { resolveHost: offlineResolveHost },
    ...(given === undefined ? {} : { store: given }),
  });
  const token = generateToken('sandbox');
  const seeded = await seedDemo({ ...store, clock, tokenHasher: resolve(container, PORTS.TokenHasher) }, { token })();
  if (E.isLeft(seeded)) throw new Error(`seed failed: ${seeded.left.message}`);
  return {
    app,
    request: supertest(app.callback()),
    demo: seeded.right,
    auth: { Authorization: `Bearer ${token}` },
    admin: { Authorization: `Bearer ${ADMIN_TOKEN}` },
  };
};

/** A compact schema of the OpenAPI 3.1 parts clients and tools rely on, as this document uses them. */
const OPENAPI_SHAPE = {
  type: 'object',
  required: ['openapi', 'info', 'servers', 'paths', 'webhooks', 'components'],
  properties: {
    openapi: { const: '3.1.0' },
    info: {
      type: 'object',
      required: ['title', 'version', 'contact'],
      properties: {
        title: { const: 'debtkit' },
        version: { type: 'string', pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+' },
        contact: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
      },
    },
    servers: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['url'],
        properties: {
          url: { type: 'string' },
          variables: {
            type: 'object',
            additionalProperties: { type: 'object', required: ['default'], properties: { default: { type: 'string' } } },
          },
        },
      },
    },
    security: { $ref: '#/$defs/security' },
    tags: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
    // One webhook per event type (docs/decisions/webhooks.md): a POST the server makes to the client's endpoint.
    webhooks: {
      type: 'object',
      propertyNames: { type: 'string', pattern: '^[a-z_]+\\.[a-z_]+$' },
      additionalProperties: {
        type: 'object',
        required: ['post'],
        additionalProperties: false,
        properties: { post: { $ref: '#/$defs/operation' } },
      },
    },
    paths: {
      type: 'object',
      propertyNames: { type: 'string', pattern: '^/' },
      additionalProperties: {
        type: 'object',
        minProperties: 1,
        propertyNames: { type: 'string', enum: METHODS },
        additionalProperties: { $ref: '#/$defs/operation' },
      },
    },
    components: {
      type: 'object',
      required: ['schemas', 'securitySchemes'],
      properties: {
        schemas: { type: 'object', additionalProperties: { type: ['object', 'boolean'] } },
        securitySchemes: {
          type: 'object',
          required: ['bearer'],
          properties: { bearer: { type: 'object' } },
          additionalProperties: {
            type: 'object',
            required: ['type', 'scheme'],
            properties: { type: { const: 'http' }, scheme: { const: 'bearer' } },
          },
        },
        parameters: { type: 'object', additionalProperties: { $ref: '#/$defs/parameter' } },
        headers: { type: 'object', additionalProperties: { $ref: '#/$defs/header' } },
        responses: { type: 'object', additionalProperties: { $ref: '#/$defs/response' } },
      },
    },
  },
  $defs: {
    ref: {
      type: 'object',
      required: ['$ref'],
      properties: { $ref: { type: 'string', pattern: '^#/components/' } },
      additionalProperties: false,
    },
    security: {
      type: 'array',
      items: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
    operation: {
      type: 'object',
      required: ['operationId', 'summary', 'tags', 'security', 'responses'],
      additionalProperties: false,
      properties: {
        operationId: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
        summary: { type: 'string', minLength: 1 },
        description: { type: 'string' },
        tags: { type: 'array', minItems: 1, items: { type: 'string' } },
        security: { $ref: '#/$defs/security' },
        parameters: { type: 'array', items: { anyOf: [{ $ref: '#/$defs/ref' }, { $ref: '#/$defs/parameter' }] } },
        requestBody: {
          type: 'object',
          required: ['content'],
          additionalProperties: false,
          properties: { required: { type: 'boolean' }, description: { type: 'string' }, content: { $ref: '#/$defs/content' } },
        },
        responses: {
          type: 'object',
          minProperties: 1,
          propertyNames: { type: 'string', pattern: '^[1-5][0-9]{2}$' },
          additionalProperties: { anyOf: [{ $ref: '#/$defs/ref' }, { $ref: '#/$defs/response' }] },
        },
      },
    },
    parameter: {
      type: 'object',
      required: ['name', 'in', 'schema'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1 },
        in: { enum: ['query', 'header', 'path', 'cookie'] },
        required: { type: 'boolean' },
        description: { type: 'string' },
        schema: { type: ['object', 'boolean'] },
      },
      // OpenAPI: a path parameter must say it is required.
      if: { type: 'object', properties: { in: { const: 'path' } } },
      then: { type: 'object', required: ['required'], properties: { required: { const: true } } },
    },
    header: {
      type: 'object',
      required: ['schema'],
      additionalProperties: false,
      properties: { description: { type: 'string' }, required: { type: 'boolean' }, schema: { type: ['object', 'boolean'] } },
    },
    response: {
      type: 'object',
      required: ['description'],
      additionalProperties: false,
      properties: {
        description: { type: 'string', minLength: 1 },
        headers: { type: 'object', additionalProperties: { anyOf: [{ $ref: '#/$defs/ref' }, { $ref: '#/$defs/header' }] } },
        content: { $ref: '#/$defs/content' },
      },
    },
    content: {
      type: 'object',
      minProperties: 1,
      // JSON everywhere, but for the Prometheus text of /metrics.
      propertyNames: { type: 'string', enum: ['application/json', 'text/plain'] },
      // An example on every success body and request body (captured from real answers: openapi-examples.test.ts).
      additionalProperties: {
        type: 'object',
        required: ['schema'],
        additionalProperties: false,
        properties: { schema: { type: ['object', 'boolean'] }, example: true },
      },
    },
  },
};

const strictAjv = () => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  return ajv;
};

/** Every `$ref` string anywhere in `value`. */
const refsIn = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(refsIn)
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsIn(v)))
      : [];

const resolvePointer = (ref: string): unknown =>
  ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Json)[key] : undefined), doc);

describe('OpenAPI document', () => {
  describe('as an OpenAPI 3.1 document', () => {
    it('has the shape of one: paths, operations, parameters, responses, security schemes', () => {
      const validate = strictAjv().compile(OPENAPI_SHAPE);
      const valid = validate(doc);
      expect(valid, strictAjv().errorsText(validate.errors)).to.equal(true);
    });

    it('resolves every $ref inside the document', () => {
      const refs = [...new Set(refsIn(doc))];
      expect(refs.length).to.be.greaterThan(20);
      for (const ref of refs) {
        expect(ref, ref).to.match(/^#\/components\/(schemas|parameters|headers|responses)\/[A-Za-z0-9._-]+$/);
        expect(resolvePointer(ref), `${ref} resolves`).to.be.an('object');
      }
    });

    it('gives every operation a unique id and declares each path parameter as a required integer id', () => {
      const ids = operations().map((o) => o.op['operationId'] as string);
      expect(new Set(ids).size).to.equal(ids.length);
      for (const { method, path, op } of operations()) {
        const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        const declared = ((op['parameters'] ?? []) as Json[]).filter((p) => p['in'] === 'path');
        expect(
          declared.map((p) => p['name']),
          `${method} ${path}`,
        ).to.deep.equal(inPath);
        for (const p of declared) expect(p['schema']).to.include({ type: 'integer', minimum: 1 });
      }
    });

    it('protects /api with the client bearer scheme, /admin with the admin one, and nothing else', () => {
      expect(doc['components']['securitySchemes']['bearer']).to.deep.include({ type: 'http', scheme: 'bearer' });
      for (const { method, path, op } of operations()) {
        const expected = path.startsWith('/api/')
          ? [{ bearer: [] }]
          : path.startsWith('/admin/') || path === '/metrics'
            ? [{ adminBearer: [] }]
            : [];
        expect(op['security'], `${method} ${path}`).to.deep.equal(expected);
      }
      for (const open of ['/healthz', '/readyz', '/openapi.json']) expect(doc['paths'][open]['get']['security']).to.deep.equal([]);
    });

    it('takes the API-Version header, limited to the known versions, on every /api operation and nowhere else', () => {
      expect(doc['components']['parameters']['ApiVersion']).to.deep.include({ name: 'API-Version', in: 'header', required: false });
      expect(doc['components']['parameters']['ApiVersion']['schema']['enum']).to.deep.equal([...versioning.known]);
      for (const { method, path, op } of operations()) {
        const refs = ((op['parameters'] ?? []) as Json[]).map((p) => p['$ref']);
        expect(refs.includes('#/components/parameters/ApiVersion'), `${method} ${path}`).to.equal(path.startsWith('/api/'));
      }
    });

    it('documents X-Request-Id on every response, and the error body with only the codes of its status', () => {
      const statusOf = new Map(Object.values(ERROR_TABLE).map((r) => [r.code as string, r.status]));
      for (const { method, path, op } of operations()) {
        for (const [status, response] of Object.entries(op['responses'] as Record<string, Json>)) {
          expect(response['headers'], `${method} ${path} ${status}`).to.have.property('X-Request-Id');
          if (Number(status) < 400) continue;
          const codes = response['content']['application/json']['schema']['properties']['error']['properties']['code']['enum'] as string[];
          expect(codes.length, `${method} ${path} ${status}`).to.be.greaterThan(0);
          for (const code of codes) expect(statusOf.get(code), `${code} in ${method} ${path} ${status}`).to.equal(Number(status));
        }
        // What every route can answer whatever it does: a body that is not JSON (415) and a crash (500).
        expect(op['responses'], `${method} ${path}`).to.include.keys('415', '500');
        if (path.startsWith('/api/')) expect(op['responses'], `${method} ${path}`).to.include.keys('400', '401', '503');
      }
    });
  });

  describe('schemas', () => {
    it('every component, parameter, request and response schema is valid JSON Schema 2020-12 that compiles in strict mode', () => {
      const ajv = createDocumentAjv(doc);
      const at: string[][] = Object.keys(doc['components']['schemas']).map((name) => ['components', 'schemas', name]);
      for (const { method, path, op } of operations()) {
        ((op['parameters'] ?? []) as Json[]).forEach((p, i) => {
          if (p['$ref'] === undefined) at.push(['paths', path, method, 'parameters', String(i), 'schema']);
        });
        if (op['requestBody'] !== undefined) at.push(['paths', path, method, 'requestBody', 'content', 'application/json', 'schema']);
        for (const [status, response] of Object.entries(op['responses'] as Record<string, Json>)) {
          for (const mediaType of Object.keys((response['content'] ?? {}) as Json))
            at.push(['paths', path, method, 'responses', status, 'content', mediaType, 'schema']);
        }
      }
      expect(at.length).to.be.greaterThan(200);
      for (const segments of at) {
        const schema = segments.reduce<any>((node, key) => node[key], doc);
        expect(ajv.validateSchema(schema), `${segments.join(' ')}: ${ajv.errorsText(ajv.errors)}`).to.equal(true);
        expect(() => compileAt(ajv, ...segments), segments.join(' ')).to.not.throw();
      }
    });

    it('types integers as integers: ids, cents, scores and bounded query integers', () => {
      const account = doc['components']['schemas']['Account'];
      expect(account['properties']['id']).to.include({ type: 'integer', minimum: 1 });
      expect(account['properties']['balance']).to.include({ type: 'integer', minimum: 0 });
      expect(account['properties']['limit']).to.deep.include({ type: ['integer', 'null'] });
      expect(account['properties']['mask']).to.deep.include({ type: ['string', 'null'], pattern: '^[0-9]{4}$' });
      expect(account['additionalProperties']).to.equal(false);
      expect(doc['components']['schemas']['CreditScore']['properties']['score']).to.deep.include({
        type: ['integer', 'null'],
        minimum: 300,
        maximum: 850,
      });
      const limit = (doc['paths']['/api/users']['get']['parameters'] as Json[]).find((p) => p['name'] === 'limit');
      expect(limit?.['schema']).to.include({ type: 'integer', minimum: 1, maximum: 100 });
    });

    it('accepts and rejects what the codecs accept and reject, on samples at the edges', () => {
      const ajv = createDocumentAjv(doc);
      const cases: Array<{ codec: t.Mixed; component: string; samples: unknown[] }> = [
        {
          codec: CreditScore,
          component: 'CreditScore',
          samples: [
            creditScore({}),
            creditScore({ payment_history: { amount: 89.99, factor: 'Good' } }),
            creditScore({ payment_history: { amount: 90, factor: 'Good' } }),
            creditScore({ credit_mix: { amount: 2.5, factor: 'Poor' } }),
            creditScore({ score: 851 }),
            creditScore({ score: null, increase: null, last_name: null, credit_age: null }),
            creditScore({ derogatory_marks: { amount: 0, factor: 'Poor' } }),
            creditScore({ id: 0 }),
            creditScore({ date: '2026-3-15' }),
          ],
        },
        {
          codec: PlanPaymentBody,
          component: 'PlanPaymentBody',
          samples: [
            { account_id: 1, amount: 1 },
            { account_id: 1, amount: 0 },
            { account_id: 1, amount: 1.5 },
            { account_id: 1, amount: 100, date: '2026-01-31' },
            { account_id: 1, amount: 100, date: null },
            { amount: 100 },
            { account_id: 1, amount: 100, note: 'x' },
          ],
        },
        {
          codec: User,
          component: 'User',
          samples: [
            user({}),
            user({ email: null, phone: null, first_name: null, date_of_birth: null }),
            user({ created_at: '2026-03-15' }),
            user({ last_name: null }),
          ],
        },
      ];
      for (const { codec, component, samples } of cases) {
        const validate = compileAt(ajv, 'components', 'schemas', component);
        for (const sample of samples) {
          expect(validate(sample), `${component} ${JSON.stringify(sample)}`).to.equal(E.isRight(codec.decode(sample)));
        }
      }
    });

    it('is stricter than t.type on purpose: a response field the codec does not declare is rejected', () => {
      const validate = compileAt(createDocumentAjv(doc), 'components', 'schemas', 'User');
      const leaked = { ...user({}), client_id: 1 };
      // io-ts ignores extra keys; the document must not, or a leaked owner id or hash would pass the HTTP tests.
      expect(E.isRight(User.decode(leaked))).to.equal(true);
      expect(validate(leaked)).to.equal(false);
    });
  });

  describe('codec walker', () => {
    const compile = (codec: t.Mixed) => {
      const registry = createSchemaRegistry({ refPrefix: '#/$defs/' });
      const schema = registry.schemaOf(codec);
      return { schema, validate: strictAjv().compile({ ...schema, $defs: registry.components() }) };
    };

    it('closes strict objects, lists their required keys and widens nullable scalars and enums with null', () => {
      const Body = strictObject('Body', { a: t.string }, { b: nullable(t.number), c: nullable(t.keyof({ x: null, y: null })) });
      const registry = createSchemaRegistry();
      expect(registry.schemaOf(Body)).to.deep.equal({ $ref: '#/components/schemas/Body' });
      expect(registry.components()['Body']).to.deep.equal({
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: ['number', 'null'] }, c: { type: ['string', 'null'], enum: ['x', 'y', null] } },
        required: ['a'],
        additionalProperties: false,
      });
    });

    it('merges an intersection of objects into one closed object', () => {
      const { schema, validate } = compile(t.intersection([t.type({ a: t.string }), t.partial({ b: t.boolean })]));
      expect(schema).to.deep.equal({
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'boolean' } },
        required: ['a'],
        additionalProperties: false,
      });
      expect([validate({ a: 'x' }), validate({ a: 'x', b: true }), validate({ b: true }), validate({ a: 'x', c: 1 })]).to.deep.equal([
        true,
        true,
        false,
        false,
      ]);
    });

    it('admits null: flat type for an inline object, anyOf for a $ref or a union of several', () => {
      const nullableObject = compile(nullable(t.type({ a: t.string })));
      expect(nullableObject.schema['type']).to.deep.equal(['object', 'null']);
      expect([nullableObject.validate(null), nullableObject.validate({ a: 'x' }), nullableObject.validate('x')]).to.deep.equal([
        true,
        true,
        false,
      ]);
      const nullableRef = compile(nullable(t.type({ a: t.string }, 'Named')));
      expect(nullableRef.schema).to.deep.equal({ anyOf: [{ $ref: '#/$defs/Named' }, { type: 'null' }] });
      expect([nullableRef.validate(null), nullableRef.validate({ a: 'x' }), nullableRef.validate({})]).to.deep.equal([true, true, false]);
      const union = compile(t.union([t.literal('a'), t.literal(1), t.null]));
      expect(union.schema['anyOf']).to.have.length(3);
      expect([union.validate('a'), union.validate(1), union.validate(null), union.validate('b')]).to.deep.equal([true, true, true, false]);
    });

    it('describes brands and bounded refinements by name, integers as integers', () => {
      const registry = createSchemaRegistry();
      expect(registry.schemaOf(Id)).to.include({ type: 'integer', minimum: 1 });
      expect(registry.schemaOf(Cents)).to.include({ type: 'integer', minimum: 0 });
      expect(registry.schemaOf(IsoDate)).to.include({ type: 'string', format: 'date' });
      expect(registry.schemaOf(Timestamp)).to.include({ type: 'string', format: 'date-time' });
      const bounded = t.refinement(t.number, (n) => Number.isSafeInteger(n) && n >= 1 && n <= 600, 'integer(1..600)');
      expect(registry.schemaOf(bounded)).to.deep.equal({ type: 'integer', minimum: 1, maximum: 600 });
      const name = t.refinement(t.string, (s) => s.length >= 1 && s.length <= 100, 'string(1..100)');
      expect(registry.schemaOf(name)).to.deep.equal({ type: 'string', minLength: 1, maxLength: 100 });
    });

    it('refuses a hand-written codec it cannot see into, rather than describing it as anything', () => {
      const Mystery = new t.Type<string, string, unknown>('Mystery', t.string.is, t.string.validate, String);
      expect(() => createSchemaRegistry().schemaOf(t.type({ m: Mystery }))).to.throw(/Mystery/);
    });

    it('refuses two different codecs with one component name', () => {
      const registry = createSchemaRegistry();
      registry.schemaOf(t.type({ a: t.string }, 'Same'));
      expect(registry.schemaOf(t.type({ a: t.string }, 'Same'))).to.deep.equal({ $ref: '#/components/schemas/Same' });
      expect(() => registry.schemaOf(t.type({ b: t.string }, 'Same'))).to.throw(/two different codecs are named "Same"/);
    });
  });

  describe('coverage of the routes', () => {
    it('documents every endpoint of the route table with its method, summary, status, body, query and errors', () => {
      const statusOf = new Map(Object.values(ERROR_TABLE).map((r) => [r.code as string, r.status]));
      for (const e of API_ENDPOINTS) {
        const label = `${e.method} ${e.path}`;
        const op = doc['paths'][toOpenApiPath(e.path)]?.[e.method.toLowerCase()] as Json | undefined;
        expect(op, `${label} is in the document`).to.not.equal(undefined);
        if (op === undefined) continue;
        expect(op['summary']).to.equal(e.summary);
        expect(op['tags']).to.deep.equal([e.tag]);
        expect(op['responses'], label).to.have.property(String(e.status));
        expect(op['responses'][String(e.status)]['content'] !== undefined, label).to.equal(e.response !== undefined);
        // A POST without fields still documents its optional `{}` body.
        expect(op['requestBody'] !== undefined, label).to.equal(e.body !== undefined || e.method === 'POST');
        if (e.body === undefined && op['requestBody'] !== undefined) expect(op['requestBody']['required'], label).to.equal(false);
        const params = (op['parameters'] ?? []) as Json[];
        expect(
          params.filter((p) => p['in'] === 'path').map((p) => p['name']),
          label,
        ).to.deep.equal([...e.pathIds]);
        const query = e.query as (t.Mixed & { required?: t.Props; optional?: t.Props }) | undefined;
        const queryNames = query === undefined ? [] : [...Object.keys(query.required ?? {}), ...Object.keys(query.optional ?? {})];
        expect(
          params.filter((p) => p['in'] === 'query').map((p) => p['name']),
          label,
        ).to.deep.equal(queryNames);
        for (const code of e.errors) {
          const status = String(statusOf.get(code));
          expect(
            op['responses'][status]?.['content']['application/json']['schema']['properties']['error']['properties']['code']['enum'],
            `${label} ${code}`,
          ).to.include(code);
        }
      }
    });

    it('documents exactly the routes the route table has (HEAD mirrors GET)', async () => {
      const { app } = await setup();
      const routes = routesOf(app);
      const byPath = (r: { method: string; path: string }) => `${r.method} ${toOpenApiPath(r.path)}`;
      const gets = new Set(routes.filter((r) => r.method === 'GET').map(byPath));
      for (const head of routes.filter((r) => r.method === 'HEAD'))
        expect(gets.has(byPath({ ...head, method: 'GET' })), byPath(head)).to.equal(true);
      const routed = routes
        .filter((r) => r.method !== 'HEAD')
        .map(byPath)
        .sort();
      const documented = operations()
        .map((o) => `${o.method.toUpperCase()} ${o.path}`)
        .sort();
      expect(documented).to.deep.equal(routed);
      // The built-in descriptions are the ones that could go stale by hand: each is a real route.
      for (const b of BUILTIN_ENDPOINTS) expect(routed, `${b.method} ${b.path}`).to.include(`${b.method} ${toOpenApiPath(b.path)}`);
    });
  });

  describe('GET /openapi.json', () => {
    it('serves the document as JSON without a token', async () => {
      const { request } = await setup();
      const res = await request.get('/openapi.json');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      // The served document names the server that serves it (here supertest's ephemeral one).
      const { servers, ...rest } = res.body as Json;
      const { servers: _static, ...built } = doc;
      expect(rest).to.deep.equal(built);
      expect(servers).to.have.length(1);
      expect(servers[0].url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(servers[0].description).to.match(/^This server: sandbox/);
      expectResponseMatchesOpenApi(res);
    });

    it('names the configured public address and environment in servers, and never a Host header that is not a plain host', async () => {
      const app = async (publicUrl?: string) =>
        (
          await compose({
            clock,
            config:
              publicUrl === undefined
                ? { environment: 'production', bureau: 'sandbox' }
                : { environment: 'production', bureau: 'sandbox', publicUrl },
          })
        ).app;
      const configured = await supertest((await app('https://api.example.org')).callback()).get('/openapi.json');
      expect(configured.body.servers).to.deep.equal([
        { url: 'https://api.example.org', description: 'This server: production (live data; tokens start with dk_live_)' },
      ]);
      const odd = await supertest((await app()).callback())
        .get('/openapi.json')
        .set('Host', 'evil.example/<script>');
      expect(odd.body.servers[0].url).to.equal('http://127.0.0.1:3000');
    });

    it('a Host header costs no rendering: each origin is the document around its URL; only the first 16 origins are kept and compressed', async () => {
      // PORT=0 and no DEBTKIT_PUBLIC_URL: the document names the request's origin.
      const { app } = await compose({ clock, config: { environment: 'production', bureau: 'sandbox', port: 0 } });
      const request = supertest(app.callback());
      const description = 'This server: production (live data; tokens start with dk_live_)';
      const get = (host: string) =>
        request
          .get('/openapi.json')
          .set('Host', host)
          .set('Accept-Encoding', 'br')
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => done(null, Buffer.concat(chunks)));
          });
      for (let i = 0; i < 20; i++) {
        const host = `origin-${i}.example:8443`;
        const res = await get(host);
        expect(res.status).to.equal(200);
        // Kept origins are compressed once per coding; past 16, a new origin is answered as it is, and not kept.
        expect(res.headers['content-encoding'], host).to.equal(i < 16 ? 'br' : undefined);
        // superagent has decoded the coding already.
        const text = (res.body as Buffer).toString('utf8');
        const expected = JSON.stringify({ ...buildOpenApiDocument(), servers: [{ url: `http://${host}`, description }] });
        const differsAt = [...text].findIndex((c, at) => c !== expected[at]);
        expect([text.length, differsAt, text.slice(differsAt - 50, differsAt + 50)], `${host}: the document around its URL`).to.deep.equal([
          expected.length,
          -1,
          '',
        ]);
        expect(res.headers['etag']).to.be.a('string');
      }
      expect((await get('origin-3.example:8443')).headers['content-encoding'], 'a kept origin stays compressed').to.equal('br');
      const old = await request.get(`/openapi.json?version=${versioning.known[0]}`).set('Host', 'origin-3.example:8443');
      expect(old.body.servers).to.deep.equal([{ url: 'http://origin-3.example:8443', description }]);
      expect(old.body.info).to.deep.equal(buildOpenApiDocument(versioning.known[0])['info']);
    });

    it('is built once: the same frozen object every time', () => {
      expect(buildOpenApiDocument()).to.equal(doc);
      expect(Object.isFrozen(doc['paths'])).to.equal(true);
    });
  });

  describe('what the server answers matches the document', () => {
    const endpointOf = (method: string, path: string) =>
      API_ENDPOINTS.find((e) => e.method === method && toOpenApiPath(e.path) === templateOf(path));

    /** Check a response against the document, and a success body against the codec the document came from. */
    const verify = (res: supertest.Response, expectedStatus: number): Json => {
      expect(res.status, `${res.request.method} ${res.request.url}: ${JSON.stringify(res.body)}`).to.equal(expectedStatus);
      expectResponseMatchesOpenApi(res);
      const e = endpointOf(res.request.method, new URL(res.request.url).pathname);
      if (e?.response !== undefined && res.status < 300) {
        const decoded = e.response.codec.decode(res.body);
        expect(E.isRight(decoded), `${e.method} ${e.path}: the body decodes with ${e.response.codec.name}`).to.equal(true);
      }
      return res.body as Json;
    };

    it('every success response of every operation', async () => {
      const { request, demo, auth, admin } = await setup();
      const demoUser = `/api/users/${demo.user.id}`;

      verify(await request.post('/api/ping').set(auth).send({ payload: 'hello' }), 200);
      verify(await request.get('/healthz'), 200);
      verify(await request.get('/readyz'), 200);
      verify(await request.get('/openapi.json'), 200);
      verify(await request.get('/metrics').set(admin), 200);

      const created = verify(
        await request
          .post('/api/users')
          .set(auth)
          .send({ last_name: 'Doe', first_name: 'Jane', email: 'jane@example.com', date_of_birth: '1990-01-02', phone: '+1 555 0101' }),
        201,
      );
      const jane = `/api/users/${created['id']}`;
      verify(await request.get('/api/users?limit=1').set(auth), 200);
      verify(await request.get(demoUser).set(auth), 200);
      verify(await request.patch(jane).set(auth).send({ first_name: 'Janet' }), 200);

      const account = verify(
        await request
          .post(`${jane}/accounts`)
          .set(auth)
          .send({
            name: 'Card',
            type: 'loan',
            subtype: 'credit_card_loan',
            balance: 120_000,
            institution_apr: 19.99,
            institution_minimum_payment: 3_500,
            limit: 500_000,
            opened_at: '2020-01-01',
            payments_history: ['1', '1', '2'],
            mask: '1234',
          }),
        201,
      );
      verify(await request.get(`${jane}/accounts?type=loan`).set(auth), 200);
      verify(await request.get(`${jane}/accounts/${account['id']}`).set(auth), 200);
      verify(await request.patch(`${jane}/accounts/${account['id']}`).set(auth).send({ nickname: 'Main card' }), 200);

      verify(await request.get(`${jane}/bureau/auth`).set(auth), 200);
      verify(await request.post(`${jane}/bureau/auth/invoke`).set(auth).send({ device_ip: '203.0.113.7' }), 200);
      verify(await request.post(`${jane}/bureau/auth/consent`).set(auth).send({ accepted: true }), 200);
      verify(await request.post(`${jane}/bureau/auth/validate_otp`).set(auth).send({ code: '123456' }), 200);
      verify(await request.post(`${jane}/bureau/auth/identity`).set(auth).send({ ssn_last4: '1234', date_of_birth: '1990-01-02' }), 200);
      verify(await request.get(`${jane}/credit_scores`).set(auth), 200);
      verify(await request.get(`${demoUser}/credit_scores`).set(auth), 200);
      verify(await request.get(`${jane}/credit_scores/history`).set(auth), 200);
      verify(await request.post(`${jane}/bureau/auth/abort`).set(auth), 200);

      const plan = verify(
        await request.post(`${demoUser}/payment_plans`).set(auth).send({ strategy: 'avalanche', monthly_payment: 500_000 }),
        201,
      );
      const planPath = `${demoUser}/payment_plans/${plan['id']}`;
      verify(await request.get(`${demoUser}/payment_plans`).set(auth), 200);
      verify(await request.get(planPath).set(auth), 200);
      verify(await request.post(`${planPath}/payments`).set(auth).send({ account_id: demo.accounts[0]?.id, amount: 10_000 }), 201);
      verify(await request.get(`${planPath}/payments`).set(auth), 200);
      verify(await request.get(`${planPath}/schedule?limit=2`).set(auth), 200);
      verify(await request.get('/api/versions').set(auth), 200);
      verify(await request.get(`${planPath}/progress`).set(auth), 200);
      verify(await request.get(`${planPath}/credit_outlook`).set(auth), 200);
      verify(await request.get(`${demoUser}/accounts/${demo.accounts[0]?.id}/repayment_disclosure`).set(auth), 200);
      verify(await request.get(`${demoUser}/accounts/${demo.accounts[0]?.id}/payoff_quote?date=2026-03-20`).set(auth), 200);
      verify(
        await request
          .post(`${demoUser}/payment_plans/compare`)
          .set(auth)
          .send({
            monthly_payment: 500_000,
            custom_order: plan['account_ids'],
            extra_payments: [{ month: 2, amount: 25_000 }],
          }),
        200,
      );
      verify(
        await request.post(`${demoUser}/sandbox/advance`).set(auth).send({ months: 1, payments: 'plan', payment_plan_id: plan['id'] }),
        200,
      );
      verify(await request.delete(planPath).set(auth), 204);

      verify(await request.post('/api/debt_calculator').set(auth).send({ balance: 1_000_000, apr: 20, monthly_payment: 50_000 }), 200);
      verify(await request.post('/api/debt_calculator').set(auth).send({ balance: 1_000_000, apr: 20, months: 24 }), 200);
      verify(await request.get('/api/learning_modules?category=investing').set(auth), 200);
      const articles = verify(await request.get('/api/articles').set(auth), 200);
      verify(await request.get(`/api/articles/${articles['articles'][0]['id']}`).set(auth), 200);
      verify(await request.delete(jane).set(auth), 204);

      const events = verify(await request.get('/api/events?type=account.created').set(auth), 200);
      verify(await request.get(`/api/events/${events['events'][0]['id']}`).set(auth), 200);
      const hook = verify(
        await request
          .post('/api/webhook_endpoints')
          .set(auth)
          .send({ url: 'https://hooks.example.com/debtkit', events: ['account.created'] }),
        201,
      );
      verify(await request.get('/api/webhook_endpoints').set(auth), 200);
      verify(await request.get(`/api/webhook_endpoints/${hook['id']}`).set(auth), 200);
      // Test webhooks and replay (docs/sandbox-over-time.md), while the endpoint is enabled.
      verify(await request.post(`/api/webhook_endpoints/${hook['id']}/test`).set(auth).send({ type: 'account.created' }), 202);
      verify(await request.post(`/api/events/${events['events'][0]['id']}/redeliver`).set(auth).send({ endpoint_id: hook['id'] }), 202);
      verify(
        await request
          .post(`/api/webhook_endpoints/${hook['id']}/replay`)
          .set(auth)
          .send({ since: '2026-01-01T00:00:00Z', until: '2026-01-02T00:00:00Z' }),
        202,
      );
      verify(
        await request.patch(`/api/webhook_endpoints/${hook['id']}`).set(auth).send({ status: 'disabled', description: 'paused' }),
        200,
      );
      verify(await request.get(`/api/webhook_endpoints/${hook['id']}/deliveries`).set(auth), 200);
      verify(await request.delete(`/api/webhook_endpoints/${hook['id']}`).set(auth), 204);

      const client = verify(await request.post('/admin/clients').set(admin).send({ name: 'Acme' }), 201);
      verify(await request.get('/admin/clients').set(admin), 200);
      const issued = verify(await request.post(`/admin/clients/${client['client']['id']}/tokens`).set(admin), 201);
      const rolled = verify(
        await request.post(`/admin/tokens/${issued['token_id']}/roll`).set(admin).send({ expires_in_seconds: 60 }),
        201,
      );
      verify(await request.get(`/admin/clients/${client['client']['id']}/tokens`).set(admin), 200);
      verify(await request.patch(`/admin/clients/${client['client']['id']}`).set(admin).send({ api_version: '2024-07-01' }), 200);
      verify(await request.delete(`/admin/tokens/${rolled['token_id']}`).set(admin), 204);
      verify(await request.get('/admin/audit_events?action=token.rolled').set(admin), 200);

      // Every operation's success response was checked, so none of them is documented only on paper.
      const covered = coveredResponses();
      for (const { method, path, op } of operations()) {
        const success = Object.keys(op['responses']).find((s) => Number(s) < 300);
        expect(
          covered.has(`${method.toUpperCase()} ${path} ${success}`),
          `${method.toUpperCase()} ${path} ${success} was checked`,
        ).to.equal(true);
      }
    });

    it('error responses: each status the areas and the endpoints declare', async () => {
      const { request, demo, auth } = await setup();
      const demoUser = `/api/users/${demo.user.id}`;
      const code = (res: supertest.Response) => (res.body as Json)['error']['code'];

      expect(code(await request.get('/api/users').then((r) => (verify(r, 401), r)))).to.equal('unauthorized');
      expect(
        code(
          await request
            .get('/api/users')
            .set(auth)
            .set('API-Version', '1999-01-01')
            .then((r) => (verify(r, 400), r)),
        ),
      ).to.equal('unsupported_version');
      expect(
        code(
          await request
            .get('/api/users/0')
            .set(auth)
            .then((r) => (verify(r, 400), r)),
        ),
      ).to.equal('validation_error');
      expect(
        code(
          await request
            .get('/api/users?limit=0&colour=red')
            .set(auth)
            .then((r) => (verify(r, 400), r)),
        ),
      ).to.equal('validation_error');
      expect(
        code(
          await request
            .get('/api/users/999999')
            .set(auth)
            .then((r) => (verify(r, 404), r)),
        ),
      ).to.equal('not_found');
      expect(code(await request.get('/no/such/route').then((r) => (verify(r, 404), r)))).to.equal('not_found');
      expect(code(await request.get('/api/no/such/route').then((r) => (verify(r, 401), r)))).to.equal('unauthorized');
      expect(
        code(
          await request
            .put(demoUser)
            .set(auth)
            .send({})
            .then((r) => (verify(r, 405), r)),
        ),
      ).to.equal('method_not_allowed');
      expect(
        code(
          await request
            .post(`${demoUser}/bureau/auth/consent`)
            .set(auth)
            .send({ accepted: true })
            .then((r) => (verify(r, 409), r)),
        ),
      ).to.equal('conflict');
      expect(
        code(
          await request
            .post('/api/ping')
            .set(auth)
            .set('Content-Type', 'text/plain')
            .send('hello')
            .then((r) => (verify(r, 415), r)),
        ),
      ).to.equal('unsupported_media_type');
      expect(
        code(
          await request
            .post('/api/ping')
            .set(auth)
            .send({ payload: 'x'.repeat(1024 * 1024) })
            .then((r) => (verify(r, 413), r)),
        ),
      ).to.equal('payload_too_large');
      expect(
        code(
          await request
            .get('/admin/clients')
            .set(auth)
            .then((r) => (verify(r, 403), r)),
        ),
      ).to.equal('forbidden');
      expect(code(await request.get('/admin/clients').then((r) => (verify(r, 401), r)))).to.equal('unauthorized');
      const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
      const issued = verify(await request.post(`/admin/clients/${demo.client.id}/tokens`).set(admin), 201);
      verify(await request.post(`/admin/tokens/${issued['token_id']}/roll`).set(admin).send({}), 201);
      expect(
        code(
          await request
            .post(`/admin/tokens/${issued['token_id']}/roll`)
            .set(admin)
            .send({})
            .then((r) => (verify(r, 409), r)),
        ),
      ).to.equal('conflict');

      const nomatch = verify(await request.post('/api/users').set(auth).send({ last_name: 'Nomatch' }), 201);
      const invoke = await request.post(`/api/users/${nomatch['id']}/bureau/auth/invoke`).set(auth).send({ device_ip: '203.0.113.7' });
      expect(code(invoke)).to.equal('bureau_error');
      verify(invoke, 422);

      const down = await setup({ ...createMemoryStore(), health: { ping: () => TE.left(unavailable('down')) } });
      const notReady = await down.request.get('/readyz');
      verify(notReady, 503);
      expect(code(notReady)).to.equal('service_unavailable');
    });

    it('fails on what the document does not say: a status, a field, a type, a body on 204, an operation', () => {
      const user = {
        id: 1,
        first_name: null,
        last_name: 'Doe',
        email: null,
        date_of_birth: null,
        phone: null,
        created_at: '2026-03-15T12:00:00.000Z',
      };
      expect(() => expectMatchesOpenApi('GET', '/api/users/1', 200, user)).to.not.throw();
      expect(() => expectMatchesOpenApi('GET', '/api/users/1', 418, user)).to.throw(/lists only/);
      expect(() => expectMatchesOpenApi('GET', '/api/users/1', 200, { ...user, client_id: 1 })).to.throw(/client_id/);
      expect(() => expectMatchesOpenApi('GET', '/api/users/1', 200, { ...user, id: '1' })).to.throw(/does not match/);
      expect(() => expectMatchesOpenApi('DELETE', '/api/users/1', 204, { deleted: true })).to.throw(/no body/);
      expect(() => expectMatchesOpenApi('GET', '/api/nothing-here', 200, {})).to.throw(/no operation/);
      expect(() => expectMatchesOpenApi('PUT', '/api/users/1', 200, user)).to.throw(/is not in the OpenAPI document/);
      expect(() => expectMatchesOpenApi('GET', '/api/nothing-here', 404, { error: { code: 'not_found' } })).to.throw(/request_id/);
      expect(() =>
        expectMatchesOpenApi('GET', '/api/users/1', 404, { error: { code: 'conflict', message: 'x', request_id: 'r' } }),
      ).to.throw(/does not match/);
    });
  });
});

function creditScore(overrides: Json): Json {
  return {
    id: 1,
    date: '2026-03-15',
    last_name: 'Doe',
    score: 700,
    increase: 0,
    payment_history: { amount: 95.5, factor: 'Good' },
    credit_utilization: { amount: 30, factor: 'Good' },
    derogatory_marks: { amount: 0, factor: 'Good' },
    credit_age: { amount: 5, factor: 'Poor' },
    credit_mix: { amount: 3, factor: 'Good' },
    new_credit: { amount: 3, factor: 'Poor' },
    ...overrides,
  };
}

function user(overrides: Json): Json {
  return {
    id: 1,
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane@example.com',
    date_of_birth: '1990-01-02',
    phone: '+1 555 0101',
    created_at: '2026-03-15T12:00:00.000Z',
    ...overrides,
  };
}
