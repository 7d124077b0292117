/**
 * The released versions' OpenAPI documents, kept in the repository
 * (`packages/adapter-http/openapi/released/<version>.json`), and the document
 * served for a version today: what the compatibility guard compares
 * (docs/testing.md, "The OpenAPI compatibility guard").
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { versioning } from '@debtkit/core';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';

const here = fileURLToPath(import.meta.url);
const packageRoot = fileURLToPath(new URL(here.includes('/dist/test/') ? '../../../' : '../../', import.meta.url));

/** Where the kept documents live, one `<version>.json` per released version. */
export const RELEASED_DIR = `${packageRoot}openapi/released/`;

/** The versions the server knows, oldest first. */
export const knownVersions = (): ReadonlyArray<string> => versioning.known;

/**
 * The OpenAPI document debtkit serves for `version` today, as the guard
 * compares it: without `servers`, which names the server that serves it.
 *
 * The one place the guard builds a version's document: the one
 * `/openapi.json?version=V` serves (`buildOpenApiDocument(version)`).
 */
export const servedDocument = (version: string): unknown => {
  if (!versioning.isKnown(version)) throw new Error(`servedDocument: ${version} is not a known API version`);
  const { servers: _servers, ...document } = buildOpenApiDocument(version) as { servers?: unknown; [key: string]: unknown };
  return withoutAdmin(document);
};

/**
 * The document without the admin API: `/admin` is the operators' API, not
 * versioned (docs/operations.md), so it is not part of what a version
 * promises (a new audit action is not a breaking change of 2024-07-01).
 */
const withoutAdmin = (document: { readonly [key: string]: unknown }): unknown => {
  const paths = (document['paths'] ?? {}) as Record<string, unknown>;
  return { ...document, paths: Object.fromEntries(Object.entries(paths).filter(([path]) => !path.startsWith('/admin'))) };
};

/** The versions that have a kept document, oldest first. */
export const keptVersions = (): ReadonlyArray<string> =>
  readdirSync(RELEASED_DIR)
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.json$/.test(f))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();

export const keptDocument = (version: string): unknown =>
  withoutAdmin(JSON.parse(readFileSync(`${RELEASED_DIR}${version}.json`, 'utf8')) as { [key: string]: unknown });

export const keepDocument = (version: string, document: unknown): void =>
  writeFileSync(`${RELEASED_DIR}${version}.json`, `${JSON.stringify(document, null, 2)}\n`);
