/** A file of its own, so client.ts and sandbox.ts both import it and not each other. */
import type { ApiVersion, VersionTypes } from './generated/versions.js';

/** The generated `paths` of version `V`: what `client.GET/POST/PATCH/DELETE` are typed by. */
export type Paths<V extends ApiVersion> = VersionTypes[V]['paths'];
