/**
 * The committed types are what `npm run client:types` gives from the released
 * OpenAPI documents as they are now (packages/adapter-http/openapi/released/):
 * a document changed by `npm run openapi:accept`, or a new version, without
 * regenerating fails here, naming the command.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

/** From dist/test/ back to the package's sources. */
const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const GENERATOR = join(PACKAGE, 'scripts', 'generate-types.mjs');

interface Generator {
  readonly generate: () => Promise<Map<string, string>>;
  readonly RELEASED: string;
  readonly GENERATED: string;
}

describe('@debtkit/client: generated types', function () {
  this.timeout(60_000);

  it('are up to date with every released OpenAPI document (else: npm run client:types)', async () => {
    const generator = (await import(GENERATOR)) as Generator;
    const expected = await generator.generate();
    const released = (await readdir(generator.RELEASED)).filter((f) => /^\d{4}-\d{2}-\d{2}\.json$/.test(f));
    expect([...expected.keys()].sort()).to.deep.equal([...released.map((f) => f.replace(/\.json$/, '.ts')), 'versions.ts'].sort());
    const committed = (await readdir(generator.GENERATED)).sort();
    expect(committed, 'src/generated holds one file per released version and versions.ts (npm run client:types)').to.deep.equal(
      [...expected.keys()].sort(),
    );
    for (const [name, text] of expected) {
      const current = await readFile(join(generator.GENERATED, name), 'utf8');
      // Not deep-equal on 600 KB of text: the first differing line says enough.
      if (current !== text) {
        const a = current.split('\n');
        const b = text.split('\n');
        const line = a.findIndex((l, i) => l !== b[i]);
        expect.fail(
          `packages/client/src/generated/${name} is stale (line ${line + 1}: ${JSON.stringify(a[line])} should be ${JSON.stringify(b[line])}): run npm run client:types`,
        );
      }
    }
  });

  it('name the released versions newest first, as the server lists them', async () => {
    const { API_VERSIONS, LATEST_API_VERSION } = await import('../src/index.js');
    const generator = (await import(GENERATOR)) as Generator;
    const released = (await readdir(generator.RELEASED))
      .map((f) => /^(\d{4}-\d{2}-\d{2})\.json$/.exec(f)?.[1])
      .filter((v) => v !== undefined);
    expect([...API_VERSIONS]).to.deep.equal(released.sort().reverse());
    expect(LATEST_API_VERSION).to.equal(API_VERSIONS[0]);
  });
});
