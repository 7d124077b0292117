/**
 * The filter that finds a visible user in MongoDB: this client's, and not being
 * deleted (docs/decisions/tenancy.md). In a module of its own so that every
 * repository matches its owning user with one definition without importing the
 * user repository (no import cycle with the plans' repository; docs/architecture.md
 * "The dependency rule, measured").
 */
import type { Filter } from 'mongodb';
import type { ClientId, UserId } from '@debtkit/core';
import type { StoredDocument } from './mongo-document-codec.js';
import { NOT_DELETING } from './mongo-record-collection.js';

/**
 * The user `get` finds: this client's, and not being deleted. The owned reads
 * of the other repositories match their user with it too (one definition).
 */
export const visibleUser = (clientId: ClientId, userId: UserId): Filter<StoredDocument> => ({
  client_id: clientId,
  _id: userId,
  ...NOT_DELETING,
});
