/**
 * The memory store's classes of the bureau feature's store ports (core's `bureau/manifest.ts`), one
 * row of `MEMORY_STORE_CLASSES` (memory-store.ts; docs/adding-a-resource.md).
 */
import type { StorePortClasses } from '@debtkit/core';
import { MemoryBureauFlowRepository } from './memory-bureau-flow-repository.js';

export const bureauMemoryClasses = {
  bureauFlows: MemoryBureauFlowRepository,
} as const satisfies Partial<StorePortClasses>;
