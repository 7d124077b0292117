/**
 * Server configuration from environment variables (docs/operations.md), decoded with
 * io-ts once at start. A bad value is one line naming the variable; values of
 * secret variables (tokens, the MongoDB URL, which may hold a password) are
 * never repeated in it.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  DEFAULT_QUOTAS,
  Environment,
  IDEMPOTENCY_CLAIM_TIMEOUT_MS,
  decode,
  isWellFormedToken,
  tokenPrefix,
  WRITE_CONFLICT_DEADLINE_MS,
  type Quotas,
} from '@debtkit/core';
import { isAddressOrCidr } from '../http/pipeline/client-address.js';
import { DEFAULT_CLIENT_CONCURRENCY, DEFAULT_QUEUE_WAIT_MS, defaultMaxInProgress } from '../http/admission-queue.js';
import { DEFAULT_REFUSAL_HOLD_MS } from '../http/refusal-hold.js';
import { DEFAULT_RENDER_CACHE_MB, MIB } from '../http/render-cache.js';

export const StoreKind = t.keyof({ memory: null, mongo: null }, 'StoreKind');
export type StoreKind = t.TypeOf<typeof StoreKind>;

export const LogLevel = t.keyof({ fatal: null, error: null, warn: null, info: null, debug: null, trace: null, silent: null }, 'LogLevel');
export type LogLevel = t.TypeOf<typeof LogLevel>;

/** DEBTKIT_BUREAU: `sandbox` lets production run on the simulated bureau, explicitly. */
export const BureauKind = t.keyof({ sandbox: null }, 'BureauKind');
export type BureauKind = t.TypeOf<typeof BureauKind>;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly environment: Environment;
  readonly store: StoreKind;
  /** Set exactly when `store` is `mongo`. */
  readonly mongodbUrl?: string;
  readonly adminToken?: string;
  /** Sandbox only: the demo client's token value, when the operator fixes it. */
  readonly bootstrapToken?: string;
  readonly seed: boolean;
  readonly logLevel: LogLevel;
  /** docs/decisions/api-conventions.md: open connections beyond this are dropped. */
  readonly maxConnections: number;
  /** docs/decisions/rate-limits.md: requests per second per client (bursts to twice that); 0 disables. */
  readonly rateLimit: number;
  /** docs/decisions/rate-limits.md: failed authentications per minute per client IP before 429; 0 disables. */
  readonly authFailureLimit: number;
  /** Delays between webhook attempts (DEBTKIT_WEBHOOK_RETRY_SECONDS); absent: the worker's default (docs/decisions/webhooks.md). */
  readonly webhookRetrySeconds?: ReadonlyArray<number>;
  /**
   * docs/decisions/idempotency.md: how long the key of a request that never finished (its process
   * died) answers 409 `idempotency_key_in_use` before a retry may run it
   * (DEBTKIT_IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS, default 60).
   */
  readonly idempotencyClaimTimeoutSeconds: number;
  /** The address clients reach the server at (behind a proxy, its public URL); default: the listen address. */
  readonly publicUrl?: string;
  /** `sandbox`: the simulated credit bureau, also in production (then with a warning at start). */
  readonly bureau?: BureauKind;
  /**
   * docs/decisions/tenancy.md quotas (DEBTKIT_QUOTA_*), each defaulted; absent when none of
   * the variables is set (core's `DEFAULT_QUOTAS` then apply).
   */
  readonly quotas?: Quotas;
  /** docs/decisions/proxies.md: addresses and CIDRs of the proxies in front (DEBTKIT_TRUSTED_PROXIES); absent, the peer is the client. */
  readonly trustedProxies?: ReadonlyArray<string>;
  /** docs/decisions/transactions.md: how long a change keeps retrying write conflicts before 409 `conflict` (DEBTKIT_WRITE_CONFLICT_DEADLINE_MS); absent: the store's default, 10000. */
  readonly writeConflictDeadlineMs?: number;
  /** docs/decisions/tenancy.md: `/api` requests in progress at once in this process (default 64 × cores; `loadConfig` always sets it). */
  readonly maxInProgress?: number;
  /** docs/decisions/tenancy.md: `/api` requests in progress at once per client (default 16). */
  readonly clientConcurrency?: number;
  /** docs/decisions/tenancy.md: milliseconds a request may wait for its slot before 429 (default 10000). */
  readonly queueWaitMs?: number;
  /** docs/decisions/rate-limits.md: milliseconds a blocked client's refusal is held before its 429, and the longest a held client's paced request waits (DEBTKIT_REFUSAL_HOLD_MS, default 1000; 0 answers at once and paces nothing; absent: 0). */
  readonly refusalHoldMs?: number;
  /** docs/sandbox-over-time.md: serve the interactive docs at `/docs` (DEBTKIT_DOCS; default: on in sandbox, off in production; `loadConfig` always sets it, absent is off). */
  readonly docs?: boolean;
  /** docs/decisions/tenancy.md: bytes of rendered answers kept (DEBTKIT_RENDER_CACHE_MB, default 64 MiB; 0 keeps none; `loadConfig` always sets it). */
  readonly renderCacheBytes?: number;
}

/** `codec` with one message for any failure, followed by the offending value unless it is secret. */
const variable = <A>(codec: t.Type<A, unknown, unknown>, message: string, secret = false): t.Type<A, unknown, unknown> =>
  new t.Type<A, unknown, unknown>(
    codec.name,
    codec.is,
    (u, c) => {
      const result = codec.validate(u, c);
      if (E.isRight(result)) return result;
      return t.failure(u, c, secret ? message : `${message} (got ${JSON.stringify(String(u).slice(0, 60))})`);
    },
    codec.encode,
  );

const Port = new t.Type<number, string, unknown>(
  'Port',
  (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= 0 && u <= 65535,
  (u, c) => (typeof u === 'string' && /^[0-9]{1,5}$/.test(u) && Number(u) <= 65535 ? t.success(Number(u)) : t.failure(u, c)),
  String,
);

const Bool = new t.Type<boolean, string, unknown>(
  'Boolean',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) => {
    const s = typeof u === 'string' ? u.toLowerCase() : undefined;
    return s === 'true' || s === '1' ? t.success(true) : s === 'false' || s === '0' ? t.success(false) : t.failure(u, c);
  },
  String,
);

const PositiveInt = new t.Type<number, string, unknown>(
  'PositiveInt',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u > 0,
  (u, c) => (typeof u === 'string' && /^[1-9][0-9]{0,8}$/.test(u) ? t.success(Number(u)) : t.failure(u, c)),
  String,
);

const NonNegativeInt = new t.Type<number, string, unknown>(
  'NonNegativeInt',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 0,
  (u, c) => (typeof u === 'string' && /^(0|[1-9][0-9]{0,8})$/.test(u) ? t.success(Number(u)) : t.failure(u, c)),
  String,
);

/** `5,300,1800`: 1 to 20 whole numbers of seconds, each at most a week. */
const RetrySeconds = new t.Type<ReadonlyArray<number>, string, unknown>(
  'RetrySeconds',
  (u): u is ReadonlyArray<number> => Array.isArray(u),
  (u, c) => {
    const parts = typeof u === 'string' ? u.split(',').map((p) => p.trim()) : [];
    const ok = parts.length >= 1 && parts.length <= 20 && parts.every((p) => /^[0-9]{1,6}$/.test(p) && Number(p) <= 604_800);
    return ok ? t.success(parts.map(Number)) : t.failure(u, c);
  },
  (a) => a.join(','),
);

/** 1 to 86400 (a day, the time a key is kept) whole seconds. */
const ClaimTimeoutSeconds = t.refinement(PositiveInt, (n) => n <= 86_400, 'ClaimTimeoutSeconds');

/** 1 ms to 10 minutes. */
const ConflictDeadlineMs = t.refinement(PositiveInt, (n) => n <= 600_000, 'ConflictDeadlineMs');

/** 0 (refuse at once what cannot be admitted) to 600000 (ten minutes) milliseconds. */
const QueueWaitMs = t.refinement(NonNegativeInt, (n) => n <= 600_000, 'QueueWaitMs');

/** 0 (answer at once) to 10 s. */
const RefusalHoldMs = t.refinement(NonNegativeInt, (n) => n <= 10_000, 'RefusalHoldMs');

/** 0 (keep nothing) to 16384 MiB. */
const RenderCacheMb = t.refinement(NonNegativeInt, (n) => n <= 16_384, 'RenderCacheMb');

const PublicUrl = t.refinement(t.string, (s) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*[^\s?#/])?$/.test(s), 'PublicUrl');

/** `10.0.0.0/8, 127.0.0.1, fd00::/8`: one or more IP addresses or CIDRs, IPv4 or IPv6. */
const TrustedProxies = new t.Type<ReadonlyArray<string>, string, unknown>(
  'TrustedProxies',
  (u): u is ReadonlyArray<string> => Array.isArray(u),
  (u, c) => {
    const entries = typeof u === 'string' ? u.split(',').map((p) => p.trim()) : [];
    return entries.length >= 1 && entries.every(isAddressOrCidr) ? t.success(entries) : t.failure(u, c);
  },
  (a) => a.join(','),
);

const NoSpaces = t.refinement(t.string, (s) => /^\S+$/.test(s), 'NoSpaces');
const MongoUrl = t.refinement(t.string, (s) => /^mongodb(\+srv)?:\/\/\S+$/.test(s), 'MongoUrl');
const AdminToken = t.refinement(t.string, (s) => /^\S{16,}$/.test(s), 'AdminToken');

const Variables = t.partial({
  PORT: variable(Port, 'must be an integer from 0 to 65535'),
  HOST: variable(NoSpaces, 'must be a host name or IP address'),
  DEBTKIT_ENV: variable(Environment, 'must be sandbox or production'),
  DEBTKIT_STORE: variable(StoreKind, 'must be memory or mongo'),
  MONGODB_URL: variable(MongoUrl, 'must be a mongodb:// or mongodb+srv:// URL', true),
  DEBTKIT_ADMIN_TOKEN: variable(AdminToken, 'must be at least 16 characters without spaces', true),
  DEBTKIT_BOOTSTRAP_TOKEN: variable(t.string, 'must be a token', true),
  DEBTKIT_SEED: variable(Bool, 'must be true or false'),
  LOG_LEVEL: variable(LogLevel, 'must be one of fatal, error, warn, info, debug, trace, silent'),
  DEBTKIT_MAX_CONNECTIONS: variable(PositiveInt, 'must be a positive integer'),
  DEBTKIT_RATE_LIMIT: variable(NonNegativeInt, 'must be a whole number of requests per second (0 disables)'),
  DEBTKIT_PUBLIC_URL: variable(PublicUrl, 'must be an http:// or https:// URL without a trailing slash, query or fragment'),
  DEBTKIT_AUTH_FAILURE_LIMIT: variable(NonNegativeInt, 'must be a whole number of failures per minute (0 disables)'),
  DEBTKIT_WEBHOOK_RETRY_SECONDS: variable(RetrySeconds, 'must be 1 to 20 comma-separated whole numbers of seconds (each at most 604800)'),
  DEBTKIT_IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS: variable(ClaimTimeoutSeconds, 'must be a whole number of seconds from 1 to 86400'),
  DEBTKIT_BUREAU: variable(BureauKind, 'must be sandbox (the simulated bureau), or unset'),
  DEBTKIT_QUOTA_ACCOUNTS_PER_USER: variable(PositiveInt, 'must be a positive whole number of accounts'),
  DEBTKIT_QUOTA_PLANS_PER_USER: variable(PositiveInt, 'must be a positive whole number of payment plans'),
  DEBTKIT_QUOTA_WEBHOOK_ENDPOINTS_PER_CLIENT: variable(PositiveInt, 'must be a positive whole number of webhook endpoints'),
  DEBTKIT_QUOTA_ARMED_DELIVERIES_PER_CLIENT: variable(PositiveInt, 'must be a positive whole number of webhook deliveries'),
  DEBTKIT_TRUSTED_PROXIES: variable(
    TrustedProxies,
    'must be comma-separated IP addresses or CIDRs (IPv4 or IPv6), e.g. 10.0.0.0/8,fd00::/8',
  ),
  DEBTKIT_WRITE_CONFLICT_DEADLINE_MS: variable(ConflictDeadlineMs, 'must be a whole number of milliseconds from 1 to 600000'),
  DEBTKIT_MAX_IN_PROGRESS: variable(PositiveInt, 'must be a positive whole number of requests'),
  DEBTKIT_CLIENT_CONCURRENCY: variable(PositiveInt, 'must be a positive whole number of requests'),
  DEBTKIT_QUEUE_WAIT_MS: variable(QueueWaitMs, 'must be a whole number of milliseconds from 0 to 600000'),
  DEBTKIT_REFUSAL_HOLD_MS: variable(RefusalHoldMs, 'must be a whole number of milliseconds from 0 to 10000'),
  DEBTKIT_DOCS: variable(Bool, 'must be true or false'),
  DEBTKIT_RENDER_CACHE_MB: variable(RenderCacheMb, 'must be a whole number of MiB from 0 (keep none) to 16384'),
});
type Variables = t.TypeOf<typeof Variables>;

/** The variables we read, with empty values treated as unset (as shells and .env files often leave them). */
const pickSet = (env: Readonly<Record<string, string | undefined>>): Record<string, string> => {
  const picked: Record<string, string> = {};
  for (const name of Object.keys(Variables.props)) {
    const value = env[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  return picked;
};

/** The quotas when any of their variables is set, each defaulted (docs/decisions/tenancy.md). */
const quotasOf = (v: Variables): Quotas | undefined =>
  v.DEBTKIT_QUOTA_ACCOUNTS_PER_USER === undefined &&
  v.DEBTKIT_QUOTA_PLANS_PER_USER === undefined &&
  v.DEBTKIT_QUOTA_WEBHOOK_ENDPOINTS_PER_CLIENT === undefined &&
  v.DEBTKIT_QUOTA_ARMED_DELIVERIES_PER_CLIENT === undefined
    ? undefined
    : {
        accountsPerUser: v.DEBTKIT_QUOTA_ACCOUNTS_PER_USER ?? DEFAULT_QUOTAS.accountsPerUser,
        paymentPlansPerUser: v.DEBTKIT_QUOTA_PLANS_PER_USER ?? DEFAULT_QUOTAS.paymentPlansPerUser,
        webhookEndpointsPerClient: v.DEBTKIT_QUOTA_WEBHOOK_ENDPOINTS_PER_CLIENT ?? DEFAULT_QUOTAS.webhookEndpointsPerClient,
        armedDeliveriesPerClient: v.DEBTKIT_QUOTA_ARMED_DELIVERIES_PER_CLIENT ?? DEFAULT_QUOTAS.armedDeliveriesPerClient,
      };

const fromVariables = (v: Variables): E.Either<string, Config> => {
  const quotas = quotasOf(v);
  const environment = v.DEBTKIT_ENV ?? 'sandbox';
  const store = v.DEBTKIT_STORE ?? 'memory';
  if (store === 'mongo' && v.MONGODB_URL === undefined) return E.left('MONGODB_URL is required when DEBTKIT_STORE is mongo');
  if (v.DEBTKIT_BOOTSTRAP_TOKEN !== undefined) {
    if (environment !== 'sandbox') return E.left('DEBTKIT_BOOTSTRAP_TOKEN is only allowed in sandbox (DEBTKIT_ENV=sandbox)');
    if (!isWellFormedToken(v.DEBTKIT_BOOTSTRAP_TOKEN, 'sandbox')) {
      return E.left(`DEBTKIT_BOOTSTRAP_TOKEN must be ${tokenPrefix('sandbox')} followed by 43 base64url characters`);
    }
  }
  const seed = v.DEBTKIT_SEED ?? environment === 'sandbox';
  // The demo client and its data are test data: they have no place in production.
  if (seed && environment !== 'sandbox') return E.left('DEBTKIT_SEED is only allowed in sandbox (DEBTKIT_ENV=sandbox)');
  return E.right({
    port: v.PORT ?? 3000,
    host: v.HOST ?? '127.0.0.1',
    environment,
    store,
    ...(store === 'mongo' && v.MONGODB_URL !== undefined ? { mongodbUrl: v.MONGODB_URL } : {}),
    ...(v.DEBTKIT_ADMIN_TOKEN !== undefined ? { adminToken: v.DEBTKIT_ADMIN_TOKEN } : {}),
    ...(v.DEBTKIT_BOOTSTRAP_TOKEN !== undefined ? { bootstrapToken: v.DEBTKIT_BOOTSTRAP_TOKEN } : {}),
    seed,
    logLevel: v.LOG_LEVEL ?? 'info',
    maxConnections: v.DEBTKIT_MAX_CONNECTIONS ?? 10_000,
    rateLimit: v.DEBTKIT_RATE_LIMIT ?? 100,
    authFailureLimit: v.DEBTKIT_AUTH_FAILURE_LIMIT ?? 30,
    idempotencyClaimTimeoutSeconds: v.DEBTKIT_IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS ?? IDEMPOTENCY_CLAIM_TIMEOUT_MS / 1000,
    writeConflictDeadlineMs: v.DEBTKIT_WRITE_CONFLICT_DEADLINE_MS ?? WRITE_CONFLICT_DEADLINE_MS,
    ...(v.DEBTKIT_WEBHOOK_RETRY_SECONDS !== undefined ? { webhookRetrySeconds: v.DEBTKIT_WEBHOOK_RETRY_SECONDS } : {}),
    ...(v.DEBTKIT_PUBLIC_URL !== undefined ? { publicUrl: v.DEBTKIT_PUBLIC_URL } : {}),
    ...(v.DEBTKIT_BUREAU !== undefined ? { bureau: v.DEBTKIT_BUREAU } : {}),
    ...(quotas !== undefined ? { quotas } : {}),
    ...(v.DEBTKIT_TRUSTED_PROXIES !== undefined ? { trustedProxies: v.DEBTKIT_TRUSTED_PROXIES } : {}),
    maxInProgress: v.DEBTKIT_MAX_IN_PROGRESS ?? defaultMaxInProgress(),
    clientConcurrency: v.DEBTKIT_CLIENT_CONCURRENCY ?? DEFAULT_CLIENT_CONCURRENCY,
    queueWaitMs: v.DEBTKIT_QUEUE_WAIT_MS ?? DEFAULT_QUEUE_WAIT_MS,
    refusalHoldMs: v.DEBTKIT_REFUSAL_HOLD_MS ?? DEFAULT_REFUSAL_HOLD_MS,
    docs: v.DEBTKIT_DOCS ?? environment === 'sandbox',
    renderCacheBytes: (v.DEBTKIT_RENDER_CACHE_MB ?? DEFAULT_RENDER_CACHE_MB) * MIB,
  });
};

/**
 * The configuration, or one line saying what is wrong (the first bad variable).
 * @example loadConfig({ PORT: 'x' }) // left('PORT must be an integer from 0 to 65535 (got "x")')
 */
export const loadConfig = (env: Readonly<Record<string, string | undefined>>): E.Either<string, Config> =>
  pipe(
    decode(Variables, 'configuration')(pickSet(env)),
    E.mapLeft((error) => {
      const first = error._tag === 'validation_error' ? error.details?.[0] : undefined;
      return first === undefined ? error.message : `${first.path} ${first.message}`;
    }),
    E.chain(fromVariables),
  );
