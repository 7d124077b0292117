/**
 * @debtkit/adapter-mongo: every storage port on MongoDB (docs/decisions/mongodb.md).
 */
export * from './mongo-store.js';
export * from './mongo-client-repository.js';
export * from './mongo-token-repository.js';
export * from './mongo-audit-log.js';
export * from './mongo-user-repository.js';
export * from './mongo-account-repository.js';
export * from './mongo-credit-score-repository.js';
export * from './mongo-bureau-flow-repository.js';
export * from './mongo-payment-plan-repository.js';
export * from './mongo-plan-payment-repository.js';
export * from './mongo-store-health.js';
export * from './mongo-idempotency-store.js';
export * from './mongo-event-outbox.js';
export * from './mongo-webhook-endpoint-repository.js';
export * from './mongo-webhook-delivery-repository.js';
export * from './mongo-erasure-registry.js';
export { MongoIdAllocator } from './mongo-id-allocator.js';
export { ABANDONED_APPEND_MS, MongoVisibleSequence } from './mongo-visible-sequence.js';
export { COLLECTIONS, INDEXES, PORT_COLLECTIONS, ensureIndexes } from './mongo-collections.js';
export { MONGO_CONTEXT, type MongoContext } from './mongo-context.js';
export { mongoContext } from './mongo-context-factory.js';
export { COMMIT_ATTEMPTS, TRANSACTION_OPTIONS, mongoTransactionDriver, mongoUnitOfWork } from './mongo-unit-of-work.js';
export { MONGO_STORE_CLASSES, mongoTransactionPorts } from './mongo-store-ports.js';
export {
  STANDALONE_REASON,
  STORE_UNAVAILABLE,
  StandaloneServerError,
  StoreClosedError,
  isTransientTransactionError,
  StoredDocumentError,
  isDuplicateKeyError,
  isUnavailableError,
  toDomainError,
} from './mongo-errors.js';
export * from './mongo-store.module.js';
export { RATE_LIMIT_SERVER_SELECTION_MS, openRateLimitConnection, type RateLimitConnection } from './mongo-rate-limit-connection.js';
