/**
 * Packages the HTTP adapter loads only when the configuration asks for them
 * (docs/embedding.md): they are optional peer dependencies, so a memory-only install
 * has no database driver. A missing one stops the start with one line that
 * names the package to install.
 */
import type { ContainerModule } from 'inversify';
import type { MongoClientLike } from '../http/rate-limits.js';
import { StartupError } from './startup-error.js';

const isNotFound = (err: unknown, specifier: string): boolean => {
  const e = err as { code?: unknown; message?: unknown };
  return (
    (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND') && typeof e.message === 'string' && e.message.includes(specifier)
  );
};

/**
 * `import(specifier)`, or a `StartupError` saying which setting needs which
 * package when it is not installed. Other load errors pass through as they are.
 */
export const importPeer = async <M>(specifier: string, neededFor: string, load: () => Promise<M>): Promise<M> => {
  try {
    return await load();
  } catch (err) {
    if (isNotFound(err, specifier)) throw new StartupError(`${neededFor} needs the package ${specifier}: npm install ${specifier}`);
    throw err;
  }
};

/** An open mongo store context, as far as the composition handles it. */
export interface MongoStoreContext {
  close(): Promise<void>;
}

/**
 * What the composition uses of `@debtkit/adapter-mongo`, by shape: this
 * package's declarations name no optional peer, so a memory-only TypeScript
 * user (full checking) does not need it installed. `loadMongoAdapter` checks
 * that the real module fits.
 */
export interface MongoAdapterModule {
  openMongoContext(
    url: string,
    options?: { readonly onStandalone?: (reason: string) => void; readonly writeConflictDeadlineMs?: number },
  ): Promise<MongoStoreContext>;
  mongoStoreModule(ctx: MongoStoreContext): ContainerModule;
  openRateLimitConnection(url: string): { readonly client: MongoClientLike; readonly dbName: string };
}

/** `@debtkit/adapter-mongo`, for DEBTKIT_STORE=mongo. */
export const loadMongoAdapter = (): Promise<MongoAdapterModule> =>
  importPeer('@debtkit/adapter-mongo', 'DEBTKIT_STORE=mongo', async (): Promise<MongoAdapterModule> => import('@debtkit/adapter-mongo'));
