/**
 * The memory store and the sandbox bureau as Inversify modules: every storage
 * port of core bound to its in-memory repository over one fresh, empty
 * database per container, `UnitOfWork` to that database's transactions, and
 * `CreditBureau` to the simulated bureau. A port added to the store is one
 * line in `MEMORY_STORE_CLASSES` (memory-store.ts).
 */
import { ContainerModule } from 'inversify';
import { PORTS, STORE_PORT_KEYS, storePortTokens, type StorePortKey, type TransactionRunnerOptions } from '@debtkit/core';
import { MemoryStoreHealth } from './memory-store-health.js';
import { MEMORY_SESSION } from './memory-collection.js';
import { MemoryDatabase } from './memory-database.js';
import { MEMORY_STORE_CLASSES, memoryUnitOfWork } from './memory-store.js';
import { SandboxCreditBureau } from './sandbox-credit-bureau.js';

/** `options`: the transactions' policy (e.g. `deadlineMs` from DEBTKIT_WRITE_CONFLICT_DEADLINE_MS). */
export const memoryStoreModule = (options?: TransactionRunnerOptions): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(MEMORY_SESSION).toConstantValue(new MemoryDatabase().autocommit);
    // Generic in the key, so Inversify checks each class against its token's type.
    const bindPort = <K extends StorePortKey>(key: K): void =>
      void bind(storePortTokens[key]).to(MEMORY_STORE_CLASSES[key]).inSingletonScope();
    for (const key of STORE_PORT_KEYS) bindPort(key);
    bind(PORTS.StoreHealth).to(MemoryStoreHealth).inSingletonScope();
    bind(PORTS.UnitOfWork).toResolvedValue((session) => memoryUnitOfWork(session.db, options), [MEMORY_SESSION]);
  });

/** The simulated bureau (test data): for sandbox, or production only when the operator says so. */
export const sandboxBureauModule = (): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(PORTS.CreditBureau).to(SandboxCreditBureau).inSingletonScope();
  });
