/**
 * The changelog, from the releases' version-change modules (docs/decisions/versioning.md): what
 * `GET /api/versions` answers and what docs/api/changelog.md is generated
 * from, so the two cannot say different things.
 */
import * as t from 'io-ts';
import { IsoDate } from '../primitives.js';
import type { Versioning } from './version-change.js';

export const ApiVersionChange = t.type({ description: t.string }, 'ApiVersionChange');

export const ApiVersionRelease = t.type(
  {
    /** The version's name, `YYYY-MM-DD`. */
    version: t.string,
    /** The day it was released (its name). */
    release_date: IsoDate,
    /** Its backward-incompatible changes; none for the first version. */
    changes: t.array(ApiVersionChange),
  },
  'ApiVersionRelease',
);

export const ApiVersionList = t.type(
  {
    /** The newest version: the one new clients are pinned to. */
    latest: t.string,
    /** The version the calling client is pinned to (answered when it sends no `API-Version`). */
    pinned: t.string,
    /** Every version, newest first. */
    versions: t.array(ApiVersionRelease),
  },
  'ApiVersionList',
);
export type ApiVersionList = t.TypeOf<typeof ApiVersionList>;

/** The changelog, newest first, for a client pinned to `pinned`. */
export const apiVersionList = (versions: Pick<Versioning, 'latest' | 'releases'>, pinned: string): ApiVersionList => ({
  latest: versions.latest,
  pinned,
  versions: versions.releases.map((release) => ({
    version: release.version,
    release_date: release.version as IsoDate,
    changes: release.changes.map((change) => ({ description: change.description })),
  })),
});

/** docs/api/changelog.md: the same releases and descriptions, as markdown (written by `npm run docs:changelog`). */
export const changelogMarkdown = (versions: Pick<Versioning, 'latest' | 'releases'>): string =>
  [
    '# API changelog',
    '',
    '<!-- GENERATED from packages/core/src/registry/versioning/versions.ts by `npm run docs:changelog`: do not edit by hand. -->',
    '',
    `The latest version is \`${versions.latest}\`. \`GET /api/versions\` answers the same list; docs/api/versions.md explains pinning and upgrading.`,
    '',
    ...versions.releases.flatMap((release) => [
      `## ${release.version}`,
      '',
      ...(release.changes.length === 0 ? ['The first version.'] : release.changes.map((change) => `- ${change.description}`)),
      '',
    ]),
  ].join('\n');
