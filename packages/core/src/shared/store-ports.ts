/**
 * The kernel's side of the port table (docs/architecture.md, "Three floors"): a typed token,
 * and the slot `TransactionPorts` that the registry fills (registry/store-ports.ts, `STORE_PORTS`).
 * The kernel names no feature: the unit of work, `Change` and the contract harness are written
 * against this slot, and the registry's module augmentation gives it every feature's store port,
 * so the compiler still sees each port by its key everywhere in core.
 */

/**
 * A typed service identifier. At run time a symbol; its type is also an
 * abstract constructor of `T`, the one member of Inversify's
 * `ServiceIdentifier<T>` (`string | symbol | Newable<T> | AbstractNewable<T>`)
 * that carries a `T`. So Inversify itself infers `T` from a token and checks
 * `bind(token).to(Class)`, `toConstantValue`, `toResolvedValue`'s dependency
 * list and `get(token)`: a wrong class or a swapped token does not compile.
 * Nothing ever calls `new` on a token. (core imports nothing from inversify.)
 */
export type PortToken<T> = symbol & (abstract new (...args: never[]) => T);

/** The type a token stands for. */
export type PortOf<Token> = Token extends PortToken<infer T> ? T : never;

/** A new token: `Symbol.for`, so two copies of core agree on it. */
export const portToken = <T>(name: string): PortToken<T> =>
  // The one cast of the table: a symbol is given the phantom constructor type (see PortToken).
  Symbol.for(`debtkit.${name}`) as unknown as PortToken<T>;

/**
 * Every store port, by key: what a transaction hands out, and what a store adapter implements.
 * Empty here on purpose: the registry (registry/store-ports.ts) adds one member per row of
 * `STORE_PORTS` by module augmentation, so the kernel never imports a feature.
 */
export interface TransactionPorts {}

export type StorePortKey = keyof TransactionPorts;

/**
 * A store adapter's implementation classes, one per key (`Newable<T>` as Inversify
 * has it). A class table typed with this misses no port and has no wrong class.
 */
export type StorePortClasses = { readonly [K in StorePortKey]: new (...args: any[]) => TransactionPorts[K] };

/**
 * `ports` with each port replaced by `f(key, port)` (e.g. a wrapper that injects faults or interleaving).
 * `ports` is a transaction's ports (built key by key from the table, `buildStorePorts`), so its own keys are the table's.
 */
export const mapStorePorts = (
  ports: TransactionPorts,
  f: <K extends StorePortKey>(key: K, port: TransactionPorts[K]) => TransactionPorts[K],
): TransactionPorts => {
  const mapped: Partial<Record<StorePortKey, unknown>> = {};
  for (const key of Object.keys(ports) as StorePortKey[]) mapped[key] = f(key, ports[key]);
  // Every key of `ports` was set just above, each with the type its key maps to.
  return mapped as TransactionPorts;
};
