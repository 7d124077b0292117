/**
 * What the endpoints under a user share: the user's scope from the path, and the errors of a user-scoped route.
 */
import type { EndpointInput } from './endpoint.js';

/** The user's scope; the authenticated client's pinned version goes with it, so events need no second read of the client (docs/performance.md). */
export const scope = (input: EndpointInput<unknown, unknown, 'id'>) => ({ clientId: input.client.id, userId: input.ids.id });

export const USER_ERRORS = ['not_found', 'validation_error'] as const;
