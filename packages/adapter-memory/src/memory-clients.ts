/**
 * The memory store's classes of the clients feature's store ports (core's `clients/manifest.ts`), one
 * row of `MEMORY_STORE_CLASSES` (memory-store.ts; docs/adding-a-resource.md).
 */
import type { StorePortClasses } from '@debtkit/core';
import { MemoryClientRepository } from './memory-client-repository.js';
import { MemoryTokenRepository } from './memory-token-repository.js';
import { MemoryAuditLog } from './memory-audit-log.js';

export const clientsMemoryClasses = {
  clients: MemoryClientRepository,
  tokens: MemoryTokenRepository,
  audit: MemoryAuditLog,
} as const satisfies Partial<StorePortClasses>;
