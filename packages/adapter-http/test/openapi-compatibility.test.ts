/**
 * The OpenAPI compatibility guard (issue 34; docs/testing.md): each released
 * version's OpenAPI document is kept in `openapi/released/<version>.json`,
 * and the document served for that version today may only add to it. A
 * breaking change (an operation, path, response field or enum value removed, a
 * type changed, a request field newly required, a new enum value in a
 * response) fails with the list of what broke: it needs a new API version.
 * An addition fails too, until it is kept with `npm run openapi:accept`, so
 * the kept document stays the one a later change is checked against.
 *
 * The second half shows the guard failing on deliberately breaking edits of a
 * kept document, one per kind, and passing additions and annotations.
 */
import { expect } from 'chai';
import { compareOpenApi, describeChanges, type Change, type ChangeKind } from './support/openapi-compatibility.js';
import { keptDocument, keptVersions, knownVersions, servedDocument } from './support/released-openapi.js';

describe('the OpenAPI compatibility guard: every released version', () => {
  it('has a kept document for every known version, and no kept document of an unknown one', () => {
    const missing = knownVersions().filter((v) => !keptVersions().includes(v));
    expect(missing, `no kept OpenAPI document for ${missing.join(', ')}: run \`npm run openapi:accept\` to keep it`).to.deep.equal([]);
    const withdrawn = keptVersions().filter((v) => !knownVersions().includes(v));
    expect(withdrawn, `released versions are never withdrawn: ${withdrawn.join(', ')}`).to.deep.equal([]);
  });

  for (const version of keptVersions()) {
    it(`${version}: the served document breaks nothing of the kept one, and adds nothing not yet kept`, () => {
      const changes = compareOpenApi(keptDocument(version), servedDocument(version));
      const breaking = changes.filter((c) => c.breaking);
      expect(
        breaking,
        `the OpenAPI document of ${version} changed incompatibly; release a new API version instead:\n${describeChanges(breaking)}`,
      ).to.deep.equal([]);
      expect(
        changes,
        `the OpenAPI document of ${version} gained additions: keep them with \`npm run openapi:accept\`:\n${describeChanges(changes)}`,
      ).to.deep.equal([]);
    });
  }
});

type Doc = {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
  webhooks: Record<string, unknown>;
};
type Schema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
};

describe('the OpenAPI compatibility guard itself', () => {
  const released = keptDocument(keptVersions()[0]!) as Doc;
  /** The kept document with one deliberate edit. */
  const edited = (edit: (d: Doc) => void): Doc => {
    const d = structuredClone(released);
    edit(d);
    return d;
  };
  const schemas = (d: Doc) => d.components.schemas;
  const schema = (d: Doc, name: string): Schema => {
    const s = schemas(d)[name];
    if (s === undefined) throw new Error(`the kept document has no schema ${name}`);
    return s;
  };
  const property = (d: Doc, name: string, field: string): Schema => {
    const p = schema(d, name).properties?.[field];
    if (p === undefined) throw new Error(`the kept document's ${name} has no ${field}`);
    return p;
  };
  const kinds = (changes: ReadonlyArray<Change>, breaking: boolean): ChangeKind[] => [
    ...new Set(changes.filter((c) => c.breaking === breaking).map((c) => c.kind)),
  ];

  it('finds nothing between a kept document and itself (and is fast enough for every run)', () => {
    const started = performance.now();
    expect(compareOpenApi(released, structuredClone(released))).to.deep.equal([]);
    expect(performance.now() - started).to.be.below(2000);
  });

  const breakingEdits: ReadonlyArray<[ChangeKind, string, (d: Doc) => void]> = [
    ['operation removed', 'POST /api/ping removed', (d) => void delete d.paths['/api/ping']!['post']],
    ['path removed', '/api/articles/{article_id} removed', (d) => void delete d.paths['/api/articles/{article_id}']],
    [
      'response field removed',
      'Account.mask removed',
      (d) => {
        delete schema(d, 'Account').properties!['mask'];
        schema(d, 'Account').required = schema(d, 'Account').required!.filter((f) => f !== 'mask');
      },
    ],
    [
      'enum value removed',
      "AccountStatus loses 'disabled'",
      (d) => void (schema(d, 'AccountStatus').enum = schema(d, 'AccountStatus').enum!.filter((v) => v !== 'disabled')),
    ],
    ['type changed', 'Account.balance integer → string', (d) => void (property(d, 'Account', 'balance').type = 'string')],
    [
      'type changed',
      'Account.limit [integer, null] → [string, null]',
      (d) => void (property(d, 'Account', 'limit').type = ['string', 'null']),
    ],
    [
      'type changed',
      'Account.name string → [string, null] (a response may now be null)',
      (d) => void (property(d, 'Account', 'name').type = ['string', 'null']),
    ],
    [
      'type changed',
      'PatchUserBody.first_name loses null (a request may no longer send null)',
      (d) => {
        const p = property(d, 'PatchUserBody', 'first_name');
        p.type = (p.type as string[]).filter((t) => t !== 'null');
      },
    ],
    [
      'request field newly required',
      'CreateUserBody.first_name required',
      (d) => void (schema(d, 'CreateUserBody').required = [...(schema(d, 'CreateUserBody').required ?? []), 'first_name']),
    ],
    [
      'response enum value added',
      "EventType gains 'thing.happened' (events and webhook payloads)",
      (d) => void schema(d, 'EventType').enum!.push('thing.happened'),
    ],
  ];
  for (const [kind, what, edit] of breakingEdits) {
    it(`fails on a breaking edit: ${kind} (${what})`, () => {
      const changes = compareOpenApi(released, edited(edit));
      expect(kinds(changes, true), describeChanges(changes)).to.include(kind);
    });
  }

  it('passes additions as additions, to be kept with the accept command: a path, a response field, an optional request field, a request enum value', () => {
    const changes = compareOpenApi(
      released,
      edited((d) => {
        d.paths['/api/ping_twice'] = structuredClone(d.paths['/api/ping']!);
        schema(d, 'Account').properties!['colour'] = { type: 'string' };
        schema(d, 'CreateUserBody').properties!['nickname'] = { type: ['string', 'null'] };
        // A value only a request may send: the query parameter's own list, apart from the responses' Category.
        const get = d.paths['/api/learning_modules']!['get'] as { parameters: Array<{ name?: string; schema?: unknown }> };
        const category = get.parameters.find((p) => p.name === 'category');
        if (category === undefined) throw new Error('the kept document has no category parameter on GET /api/learning_modules');
        category.schema = { type: 'string', enum: [...schema(d, 'Category').enum!, 'retirement'] };
      }),
    );
    expect(kinds(changes, true), describeChanges(changes)).to.deep.equal([]);
    expect(kinds(changes, false)).to.include.members([
      'path added',
      'response field added',
      'request field added',
      'request enum value added',
    ]);
  });

  /** The `error.code` enum of a response of the kept document (an error status's JSON body). */
  const errorCodes = (d: Doc, path: string, status: string): string[] => {
    const post = d.paths[path]!['post'] as {
      responses: Record<
        string,
        { content: { 'application/json': { schema: { properties: { error: { properties: { code: Schema } } } } } } }
      >;
    };
    const code = post.responses[status]!.content['application/json'].schema.properties.error.properties.code;
    if (code.enum === undefined) throw new Error(`the kept document lists no error codes for POST ${path} ${status}`);
    return code.enum as string[];
  };
  const REPLAY = '/api/webhook_endpoints/{endpoint_id}/replay';

  it("passes a code added to an error response's code as an addition (docs/decisions/versioning.md), and fails on one removed", () => {
    // The kept replay's 409 lists `quota_exceeded`; a document without it stands for the one before it was added.
    const without = edited((d) => {
      const codes = errorCodes(d, REPLAY, '409');
      codes.splice(codes.indexOf('quota_exceeded'), 1);
    });
    expect(errorCodes(released, REPLAY, '409')).to.include('quota_exceeded');
    const added = compareOpenApi(without, released);
    expect(kinds(added, true), describeChanges(added)).to.deep.equal([]);
    expect(added.map((c) => [c.kind, c.where, c.detail])).to.deep.equal([
      ['error code added', `POST ${REPLAY} 409.error.code`, '"quota_exceeded"'],
    ]);
    const removed = compareOpenApi(released, without);
    expect(kinds(removed, true), describeChanges(removed)).to.deep.equal(['enum value removed']);
  });

  it('ignores annotations: descriptions and examples', () => {
    const changes = compareOpenApi(
      released,
      edited((d) => {
        schema(d, 'Account').description = 'A linked account, described anew';
        const post = d.paths['/api/users']!['post'] as { requestBody: { content: Record<string, { example?: unknown }> } };
        post.requestBody.content['application/json']!.example = { last_name: 'Someone' };
      }),
    );
    expect(changes).to.deep.equal([]);
  });
});
