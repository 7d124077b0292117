/**
 * The versioning engine (docs/decisions/versioning.md), on the kernel floor: releases in, a
 * `Versioning` out. It names no feature: the registry's `makeVersioning`
 * (registry/versioning/versions.ts) gives it the releases with their event transforms and the
 * response kinds to check them against.
 */
import type * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { IsoDate } from '../primitives.js';
import { decode } from '../codec.js';
import {
  NO_RENDER_CONTEXT,
  type BodyTransform,
  type RequestMigration,
  type ResponseKind,
  type VersionRelease,
  type Versioning,
} from './version-change.js';

const composeAll =
  (transforms: ReadonlyArray<BodyTransform>): BodyTransform =>
  (body, context) =>
    transforms.reduce((b, f) => f(b, context), body);

const TYPE_LIKE_NAME = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Build a registry from releases (in any order), each change's kinds checked with `isResponseKind`
 * (the registry's `makeVersioning` gives its `ResponseKind` and the events' transforms). Each transform pipeline is
 * composed here, once, so `render` is a lookup and a call.
 *
 * Throws on a malformed registry (a version that is not a real `YYYY-MM-DD`
 * date, a duplicate release, a change filed under another release, an unknown
 * response kind, a previous codec without a type-like name, two previous
 * codecs of one name in one change, no release at all): it is a programming
 * error that must stop the process at start-up, not a condition a caller can handle.
 *
 * @example
 * const v = buildVersioning([
 *   { version: '2024-07-01', changes: [] },
 *   { version: '2025-01-01', changes: [{ version: '2025-01-01', description: 'score → value',
 *     transforms: { credit_score: renameField('value', 'score') } }] },
 * ], () => true);
 * v.render('credit_score', { value: 700 }, '2024-07-01') // { score: 700 }
 */
export const buildVersioning = (releases: ReadonlyArray<VersionRelease>, isResponseKind: (kind: string) => boolean): Versioning => {
  if (releases.length === 0) throw new Error('makeVersioning: at least one release is required');
  const seen = new Set<string>();
  for (const release of releases) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(release.version) || !IsoDate.is(release.version)) {
      throw new Error(`makeVersioning: release version "${release.version}" is not a YYYY-MM-DD date`);
    }
    if (seen.has(release.version)) throw new Error(`makeVersioning: release ${release.version} is listed twice`);
    seen.add(release.version);
    for (const change of release.changes) {
      if (change.version !== release.version) {
        throw new Error(`makeVersioning: change "${change.description}" (${change.version}) is filed under release ${release.version}`);
      }
      for (const kind of Object.keys(change.transforms)) {
        if (!isResponseKind(kind)) throw new Error(`makeVersioning: change "${change.description}" names unknown response kind "${kind}"`);
      }
      const names = [...(change.requests ?? []).map((r) => r.previous.name), ...(change.previousCodecs ?? []).map((c) => c.name)];
      for (const name of names) {
        if (!TYPE_LIKE_NAME.test(name))
          throw new Error(`makeVersioning: change "${change.description}" has a previous codec named "${name}", not as a latest codec is`);
      }
      if (new Set(names).size !== names.length)
        throw new Error(`makeVersioning: change "${change.description}" has two previous codecs of one name`);
    }
  }

  // YYYY-MM-DD strings sort chronologically as plain strings.
  const ordered = [...releases].sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  const known = Object.freeze(ordered.map((r) => r.version));
  const latest = known[known.length - 1] as string;

  // For each release, the transforms of every newer release, newest first;
  // within one release, changes are undone in reverse of their listed order.
  const pipelines = new Map<string, Partial<Record<ResponseKind, BodyTransform>>>();
  // For each release, the codecs it has in place of latest ones, and the request migrations it needs (oldest first), by codec name.
  const codecs = new Map<string, ReadonlyMap<string, t.Mixed>>();
  const migrations = new Map<string, ReadonlyMap<string, ReadonlyArray<RequestMigration>>>();
  const pending: Partial<Record<ResponseKind, BodyTransform[]>> = {};
  const pendingCodecs = new Map<string, t.Mixed>();
  const pendingMigrations = new Map<string, RequestMigration[]>();
  for (let i = ordered.length - 1; i >= 0; i--) {
    const release = ordered[i] as VersionRelease;
    const composed: Partial<Record<ResponseKind, BodyTransform>> = {};
    for (const [kind, list] of Object.entries(pending) as Array<[ResponseKind, BodyTransform[]]>) {
      composed[kind] = list.length === 1 ? (list[0] as BodyTransform) : composeAll([...list]);
    }
    pipelines.set(release.version, composed);
    codecs.set(release.version, new Map(pendingCodecs));
    migrations.set(release.version, new Map([...pendingMigrations].map(([name, list]) => [name, [...list]])));
    for (const change of [...release.changes].reverse()) {
      for (const [kind, transform] of Object.entries(change.transforms) as Array<[ResponseKind, BodyTransform | undefined]>) {
        if (transform !== undefined) (pending[kind] ??= []).push(transform);
      }
      // Walking back in time: an older change's previous codec replaces a newer one's, its migration runs first.
      for (const codec of change.previousCodecs ?? []) pendingCodecs.set(codec.name, codec);
      for (const migration of change.requests ?? []) {
        pendingCodecs.set(migration.previous.name, migration.previous);
        pendingMigrations.set(migration.previous.name, [migration, ...(pendingMigrations.get(migration.previous.name) ?? [])]);
      }
    }
  }

  const newestFirst = Object.freeze([...ordered].reverse());
  const check = (version: string, what: string): void => {
    if (!pipelines.has(version)) throw new Error(`${what}: unknown API version "${version}" (check isKnown first)`);
  };

  return {
    latest,
    known,
    releases: newestFirst,
    isKnown: (version) => pipelines.has(version),
    render: (kind, body, version, context = NO_RENDER_CONTEXT) => {
      // The common case on every request: nothing to do, not even a lookup.
      if (version === latest) return body;
      const pipeline = pipelines.get(version);
      if (pipeline === undefined) throw new Error(`render: unknown API version "${version}" (check isKnown first)`);
      const transform = pipeline[kind];
      return transform === undefined ? body : transform(body, context);
    },
    migrateRequest: (codecName, body, version) => {
      if (version === latest) return E.right(body);
      check(version, 'migrateRequest');
      const steps = migrations.get(version)?.get(codecName);
      const codec = codecs.get(version)?.get(codecName);
      if (steps === undefined || codec === undefined) return E.right(body);
      return E.map(() => steps.reduce<unknown>((b, step) => step.migrate(b as Readonly<Record<string, unknown>>), body))(
        decode(codec, 'request body')(body),
      );
    },
    codecAt: (name, version) => {
      check(version, 'codecAt');
      return codecs.get(version)?.get(name);
    },
  };
};
