/**
 * The memory store's classes of the credit-scores feature's store ports (core's `credit-scores/manifest.ts`), one
 * row of `MEMORY_STORE_CLASSES` (memory-store.ts; docs/adding-a-resource.md).
 */
import type { StorePortClasses } from '@debtkit/core';
import { MemoryCreditScoreRepository } from './memory-credit-score-repository.js';

export const creditScoresMemoryClasses = {
  creditScores: MemoryCreditScoreRepository,
} as const satisfies Partial<StorePortClasses>;
