/**
 * A client generated from the document with openapi-typescript sees the
 * webhook payloads: the generated `webhooks` interface types each event's
 * body, with `data.object` the resource of its endpoints. A snippet using them
 * is typechecked (strict) against the generated file; a wrong field fails it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';

const typecheck = (dir: string, files: Record<string, string>): string[] => {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((name) => join(dir, name)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: false,
      types: [],
    },
  );
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
};

const SNIPPET = `
import type { webhooks } from './debtkit-api.js';

type Payload<T extends keyof webhooks> = webhooks[T]['post']['requestBody']['content']['application/json'];

export const onAccountCreated = (event: Payload<'account.created'>): string => {
  const type: 'account.created' = event.type;
  const balance: number = event.data.object.balance;
  return \`\${type} \${event.id} for user \${event.data.user_id}: \${balance} cents\`;
};

export const onPlanPayment = (event: Payload<'plan_payment.created'>): number => event.data.object.amount;
export const onUserDeleted = (event: Payload<'user.deleted'>): number => event.data.object.id;
`;

describe('a client generated with openapi-typescript', function () {
  this.timeout(60_000);
  let dir: string;
  let generated: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'debtkit-openapi-ts-'));
    generated = astToString(await openapiTS(JSON.parse(JSON.stringify(buildOpenApiDocument()))));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('has a webhooks interface with every event type', () => {
    expect(generated).to.match(/export interface webhooks \{/);
    for (const type of ['account.created', 'credit_score.created', 'user.deleted', 'plan_payment.created'])
      expect(generated).to.include(`"${type}": {`);
  });

  it('types the webhook payloads: a snippet using them typechecks', () => {
    expect(typecheck(dir, { 'debtkit-api.ts': generated, 'handler.ts': SNIPPET })).to.deep.equal([]);
  });

  it('and rejects a field the payload does not have, or a wrong event type', () => {
    const wrong = SNIPPET.replace('event.data.object.balance', 'event.data.object.no_such_field').replace(
      "const type: 'account.created'",
      "const type: 'account.closed'",
    );
    const errors = typecheck(dir, { 'debtkit-api.ts': generated, 'handler.ts': wrong });
    expect(
      errors.some((e) => e.includes('no_such_field')),
      errors.join('\n'),
    ).to.equal(true);
    expect(
      errors.some((e) => e.includes('"account.closed"')),
      errors.join('\n'),
    ).to.equal(true);
  });
});
