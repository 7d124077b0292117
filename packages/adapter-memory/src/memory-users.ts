/**
 * The memory store's classes of the users feature's store ports (core's `users/manifest.ts`), one
 * row of `MEMORY_STORE_CLASSES` (memory-store.ts; docs/adding-a-resource.md).
 */
import type { StorePortClasses } from '@debtkit/core';
import { MemoryUserRepository } from './memory-user-repository.js';
import { MemoryErasureRegistry } from './memory-erasure-registry.js';

export const usersMemoryClasses = {
  users: MemoryUserRepository,
  erasures: MemoryErasureRegistry,
} as const satisfies Partial<StorePortClasses>;
