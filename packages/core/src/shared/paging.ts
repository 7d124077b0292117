import type { Id } from './primitives.js';

/** A page request: ascending by id, items with id > `startingAfter`. */
export interface PageRequest {
  readonly limit: number;
  readonly startingAfter?: Id;
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>;
  readonly hasMore: boolean;
}
