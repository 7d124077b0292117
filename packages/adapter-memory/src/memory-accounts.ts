/**
 * The memory store's classes of the accounts feature's store ports (core's `accounts/manifest.ts`), one
 * row of `MEMORY_STORE_CLASSES` (memory-store.ts; docs/adding-a-resource.md).
 */
import type { StorePortClasses } from '@debtkit/core';
import { MemoryAccountRepository } from './memory-account-repository.js';

export const accountsMemoryClasses = {
  accounts: MemoryAccountRepository,
} as const satisfies Partial<StorePortClasses>;
