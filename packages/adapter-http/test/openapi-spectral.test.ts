/**
 * The OpenAPI document through the linters integrators run: Spectral's
 * `spectral:oas` ruleset and Redocly's `recommended` one, each at 0 errors and
 * 0 warnings.
 */
import { expect } from 'chai';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralRulesets from '@stoplight/spectral-rulesets';
import spectralParsers from '@stoplight/spectral-parsers';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';

const { Spectral, Document } = spectralCore;
const SEVERITY = ['error', 'warn', 'info', 'hint'] as const;

describe('OpenAPI document under spectral:oas', function () {
  // Spectral loads its rule functions on first use: a second or two.
  this.timeout(30_000);

  let findings: Array<{ severity: string; code: string; path: string; message: string }>;
  before(async () => {
    const spectral = new Spectral();
    // The published ruleset object is wider than the declared definition type (its aliases): the library takes it as is.
    const oas = spectralRulesets.oas as unknown as RulesetDefinition;
    spectral.setRuleset({ extends: [[oas, 'recommended']] });
    const document = new Document(JSON.stringify(buildOpenApiDocument(), null, 2), spectralParsers.Json, 'openapi.json');
    const results = await spectral.run(document);
    findings = results.map((r) => ({
      severity: SEVERITY[r.severity] ?? String(r.severity),
      code: String(r.code),
      path: r.path.join('.'),
      message: r.message,
    }));
  });

  it('has no errors and no warnings', () => {
    expect(findings.filter((f) => f.severity === 'error' || f.severity === 'warn')).to.deep.equal([]);
  });

  it('describes every operation and uses every component', () => {
    const codes = new Set(findings.map((f) => f.code));
    for (const code of ['operation-description', 'oas3-unused-component', 'array-items', 'oas3-valid-media-example', 'oas3-schema']) {
      expect(codes.has(code), `${code}: ${JSON.stringify(findings.filter((f) => f.code === code).slice(0, 3))}`).to.equal(false);
    }
  });
});

describe('OpenAPI document under Redocly lint (recommended)', function () {
  this.timeout(30_000);

  it('has no errors and no warnings', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(buildOpenApiDocument(), null, 2), absoluteRef: 'openapi.json', config });
    const findings = problems.map((p) => ({ severity: p.severity, rule: p.ruleId, message: p.message, at: p.location[0]?.pointer }));
    expect(findings).to.deep.equal([]);
  });

  it('would report a tag without a description (the check is live)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const document = { ...buildOpenApiDocument(), tags: [...(buildOpenApiDocument()['tags'] as object[]), { name: 'Undescribed' }] };
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => p.ruleId)).to.include('tag-description');
  });
});
