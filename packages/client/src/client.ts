/**
 * `createClient({ baseUrl, token, apiVersion })`: openapi-fetch's client over
 * one API version's generated types (packages/client/README.md;
 * docs/decisions/client.md), with the request path made safe
 * (./retrying-fetch.ts), `paginate` for every paged list, and the sandbox's
 * helpers.
 */
import createFetchClient, { type Client } from 'openapi-fetch';
import { API_VERSIONS, LISTS, type ApiVersion, type VersionTypes } from './generated/versions.js';
import type { Paths } from './paths.js';
import { DebtkitApiError, type ApiErrorBody } from './errors.js';
import { DEFAULT_RETRY_POLICY, defaultRetryEnvironment, retryingFetch, type RetryEnvironment, type RetryPolicy } from './retrying-fetch.js';
import { sandboxHelpers, type SandboxHelpers } from './sandbox.js';

export type { Paths } from './paths.js';
/** The generated `components` of version `V` (`Schemas<'2026-11-26'>['PaymentPlan']`…). */
export type Schemas<V extends ApiVersion> = VersionTypes[V]['components']['schemas'];

type Lists<V extends ApiVersion> = (typeof LISTS)[V];
/** A paged list of version `V` (a GET path `paginate` takes). */
export type ListPath<V extends ApiVersion> = keyof Lists<V> & keyof Paths<V> & string;
type ListOperation<V extends ApiVersion, P extends ListPath<V>> = Paths<V>[P] extends { get: infer O } ? O : never;
type ListPage<V extends ApiVersion, P extends ListPath<V>> =
  ListOperation<V, P> extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type ItemsKey<V extends ApiVersion, P extends ListPath<V>> = Lists<V>[P] extends { items: infer K } ? K & keyof ListPage<V, P> : never;
/** An item of the list at `P` (a user, an account, a schedule month…). */
export type ListItem<V extends ApiVersion, P extends ListPath<V>> =
  ListPage<V, P>[ItemsKey<V, P>] extends ReadonlyArray<infer I> ? I : never;
type ListParameters<V extends ApiVersion, P extends ListPath<V>> = ListOperation<V, P> extends { parameters: infer Q } ? Q : never;
type PathPart<Q> = Q extends { path: infer PP } ? { path: PP } : { path?: never };
type QueryPart<Q> = Q extends { query?: infer QQ } ? { query?: Omit<NonNullable<QQ>, 'starting_after'> } : { query?: never };
/** `paginate`'s parameters: the list's path parameters and its query without `starting_after` (the cursor is the client's). */
export type PaginateOptions<V extends ApiVersion, P extends ListPath<V>> = {
  params: PathPart<ListParameters<V, P>> & QueryPart<ListParameters<V, P>>;
};

export interface ClientOptions<V extends ApiVersion> {
  /** Where debtkit answers, e.g. `http://127.0.0.1:3000` (the paths start with `/api`). */
  readonly baseUrl: string;
  /**
   * A client token (`dk_sandbox_…`, `dk_live_…`), sent as `Authorization: Bearer`. Omit it only
   * behind a same-origin proxy that adds it (the dashboard's server keeps the token out of the page).
   */
  readonly token?: string;
  /** The version to speak: sent as `API-Version` on every request; the types are that version's. */
  readonly apiVersion: V;
  /** Retries after the first attempt for GET and keyed POSTs (default 2; 0: none). */
  readonly maxRetries?: number;
  /** How long one attempt may wait for its answer (default 30000 ms). */
  readonly timeoutMs?: number;
  /** Backoff bounds and the longest `Retry-After` waited for (default 500 ms, 8 s, 60 s). */
  readonly retry?: Partial<Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'maxRetryAfterMs'>>;
  /** Headers sent on every request. */
  readonly headers?: Record<string, string>;
  /** Replaces what the client reaches outside itself: `fetch`, its waits, its randomness, its key generator (tests). */
  readonly environment?: Partial<RetryEnvironment>;
}

export type DebtkitClient<V extends ApiVersion> = Client<Paths<V>, 'application/json'> & {
  readonly apiVersion: V;
  /**
   * Every item of a paged list, page after page, `for await`: the next page starts after the last
   * item's cursor (an id, or a month for a schedule), until `has_more` is false. An error answer is
   * thrown as `DebtkitApiError`.
   */
  paginate<P extends ListPath<V>>(path: P, options: PaginateOptions<V, P>): AsyncIterable<ListItem<V, P>>;
  /** The sandbox's test clock, test events and replay (docs/sandbox-over-time.md, docs/webhook-replay.md). */
  readonly sandbox: SandboxHelpers;
};

/** The error codes an answer `{ error }` of one operation can carry. */
export type ErrorCodeOf<E> = E extends { error: { code: infer C } } ? C : never;

/**
 * The data of an answer, or its error thrown as a `DebtkitApiError` whose `code` is one the
 * operation documents: `const plan = await unwrap(client.POST('/api/users/{id}/payment_plans', …))`.
 */
export const unwrap = async <D, E>(pending: Promise<{ data?: D; error?: E; response: Response }>): Promise<D> => {
  const answer = await pending;
  if (answer.error !== undefined)
    throw new DebtkitApiError<ErrorCodeOf<E> & string>(
      answer.response.status,
      answer.error as unknown as ApiErrorBody<ErrorCodeOf<E> & string>,
    );
  return answer.data as D;
};

const isApiVersion = (v: unknown): v is ApiVersion => (API_VERSIONS as ReadonlyArray<unknown>).includes(v);

export const createClient = <V extends ApiVersion>(options: ClientOptions<V>): DebtkitClient<V> => {
  if (!isApiVersion(options.apiVersion))
    throw new TypeError(`apiVersion must be one of ${API_VERSIONS.join(', ')}; got ${String(options.apiVersion)}`);
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.retry,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const environment: RetryEnvironment = { ...defaultRetryEnvironment(), ...options.environment };
  const headers: Record<string, string> = { ...options.headers, 'API-Version': options.apiVersion };
  if (options.token !== undefined) headers['Authorization'] = `Bearer ${options.token}`;
  const client = createFetchClient<Paths<V>, 'application/json'>({
    baseUrl: options.baseUrl,
    headers,
    fetch: retryingFetch(policy, environment),
  });
  const lists = LISTS[options.apiVersion] as Record<string, { readonly items: string; readonly cursor: 'id' | 'month' }>;

  async function* paginate(path: string, paging: { params: { path?: unknown; query?: Record<string, unknown> } }): AsyncGenerator<unknown> {
    const list = lists[path];
    if (list === undefined) throw new TypeError(`${path} is not a paged list of API version ${options.apiVersion}`);
    let startingAfter: unknown = undefined;
    for (;;) {
      const query = { ...paging.params.query, ...(startingAfter === undefined ? {} : { starting_after: startingAfter }) };
      // The table names only GET lists of this version; openapi-fetch's types cannot follow a path chosen at run time.
      const get = client.GET as unknown as (
        path: string,
        init: unknown,
      ) => Promise<{ data?: Record<string, unknown>; error?: ApiErrorBody; response: Response }>;
      const page = await unwrap(get(path, { params: { ...paging.params, query } }));
      const items = page?.[list.items];
      if (!Array.isArray(items)) throw new TypeError(`${path}: the answer has no "${list.items}" list`);
      yield* items;
      if (page?.['has_more'] !== true || items.length === 0) return;
      startingAfter = (items[items.length - 1] as Record<string, unknown>)[list.cursor];
    }
  }

  return Object.assign(client, {
    apiVersion: options.apiVersion,
    paginate: paginate as DebtkitClient<V>['paginate'],
    sandbox: sandboxHelpers(client as unknown as Client<Paths<ApiVersion>, 'application/json'>),
  });
};
