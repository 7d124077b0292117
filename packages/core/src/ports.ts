export * from './shared/paging.js';
export * from './shared/owned-read.js';
export * from './shared/clock.js';
export * from './shared/store-health.js';
export * from './shared/idempotency-store.js';
export * from './shared/store-ports.js';
export * from './shared/secret-generator.js';
export * from './shared/unit-of-work.js';
