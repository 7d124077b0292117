/**
 * The OpenAPI document through Spectral's `spectral:oas` ruleset, as an
 * integrator's linter sees it: no errors, and every operation described.
 */
import { expect } from 'chai';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralRulesets from '@stoplight/spectral-rulesets';
import spectralParsers from '@stoplight/spectral-parsers';
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
    findings = results.map((r) => ({ severity: SEVERITY[r.severity] ?? String(r.severity), code: String(r.code), path: r.path.join('.'), message: r.message }));
  });

  it('has no errors', () => {
    expect(findings.filter((f) => f.severity === 'error')).to.deep.equal([]);
  });

  it('describes every operation and uses every component', () => {
    const codes = new Set(findings.map((f) => f.code));
    for (const code of ['operation-description', 'oas3-unused-component', 'array-items', 'oas3-valid-media-example', 'oas3-schema']) {
      expect(codes.has(code), `${code}: ${JSON.stringify(findings.filter((f) => f.code === code).slice(0, 3))}`).to.equal(false);
    }
  });
});
