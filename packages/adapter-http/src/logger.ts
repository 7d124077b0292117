/**
 * The logger debtkit writes to: a pino logger, described by the members
 * debtkit uses. Declared here, not imported from pino, so that this package's
 * declarations load no pino types: pino's own declarations need
 * `esModuleInterop` (a default import of thread-stream), and a consumer
 * compiling with `esModuleInterop: false` and `skipLibCheck: false` must be
 * able to use debtkit. Any pino logger (or a child of one) is a `Logger`.
 */
export interface LogFn {
  (obj: object, msg?: string): void;
  (msg: string): void;
}

export interface Logger {
  /** The current level (`info`, `warn`, …, `silent`); it can be changed at run time. */
  level: string;
  readonly levels: { readonly values: { readonly [level: string]: number } };
  isLevelEnabled(level: string): boolean;
  readonly fatal: LogFn;
  readonly error: LogFn;
  readonly warn: LogFn;
  readonly info: LogFn;
  readonly debug: LogFn;
  readonly trace: LogFn;
}

/** pino's levels, and `silent`. */
export type LogLevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
