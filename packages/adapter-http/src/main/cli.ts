#!/usr/bin/env node
/**
 * The `debtkit` command.
 *
 *   debtkit [serve]                  start the API (configuration: environment variables, docs/operations.md)
 *   debtkit clients create --name X  create a client and print it with its first token (persistent store only)
 *   debtkit clients set-version --client-id N --api-version V
 *                                    move a client to another known API version and print it (docs/operations.md)
 *   debtkit tokens roll --token-id N [--expires-in-seconds S]
 *                                    roll a token: print the new one; the old one works S more seconds (default 86400)
 *   debtkit audit [--limit N] [--starting-after N] [--action A]
 *                                    print a page of the admin audit log (docs/operations.md)
 *   debtkit help
 *
 * Changes made here are audited like the admin API's, with `request_id` and `ip` null.
 *
 * Exit status 1 with one line on stderr for a bad configuration or a failed start.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import {
  AuditEventsQuery,
  PatchClientBody,
  RollTokenBody,
  queryIdOf,
  toDetails,
  versioning,
  type AuditEvent,
  type ClientAccess,
  type DomainError,
  type Page,
  type RolledToken,
} from '@debtkit/core';
import { loadConfig, type Config } from './config.js';
import { HTTP, StartupError, resolve } from './container.js';
import { composeContainer } from './composition.js';
import { startServer, startupLines } from './server.js';
import { createServerLogger } from './log-destination.js';
import { startTracing } from './tracing.js';

const USAGE = `usage:
  debtkit [serve]                  start the API server
  debtkit clients create --name X  create a client and print its first token (needs DEBTKIT_STORE=mongo)
  debtkit clients set-version --client-id N --api-version V
                                   move a client to another known API version (needs DEBTKIT_STORE=mongo)
  debtkit tokens roll --token-id N [--expires-in-seconds S]
                                   roll a token: print the new one; the old one keeps working S seconds
                                   (0 to 604800, default 86400) (needs DEBTKIT_STORE=mongo)
  debtkit audit [--limit N] [--starting-after N] [--action A]
                                   print a page of the admin audit log, oldest first (needs DEBTKIT_STORE=mongo)
  debtkit help`;

const fail = (message: string): number => {
  process.stderr.write(`debtkit: ${message}\n`);
  return 1;
};

const describeError = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const serve = async (config: Config): Promise<number> => {
  // Request lines are written without blocking the request; closed (every line written) before the exit.
  const log = createServerLogger({ level: config.logLevel });
  const { logger } = log;
  // OpenTelemetry, when OTEL_TRACES_EXPORTER names an exporter (its SDK is an optional peer).
  const tracing = await startTracing(process.env);
  const running = await startServer({ config, logger });

  // Keep serving through a stray rejection: one bad promise must not take every request down with it.
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));

  const exit = new Promise<number>((resolveExit) => {
    // Listening for good, not once: Ctrl-C reaches this process twice (from the
    // terminal, and forwarded by `npm start`), and the second must not kill it mid-shutdown.
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      // The second signal changes nothing (and the log may be closed by then).
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      // The spans of the last requests are flushed after the server stopped answering.
      const flushTraces = (): Promise<void> =>
        tracing.shutdown().catch((err: unknown) => logger.warn({ err }, 'flushing the traces failed'));
      running.shutdown().then(
        () =>
          flushTraces()
            .then(() => log.close())
            .then(() => resolveExit(0)),
        () =>
          flushTraces()
            .then(() => log.close())
            .then(() => resolveExit(1)),
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  // Announced only once the signals are handled: a supervisor that stops the server as soon as it reads this line gets a clean exit.
  process.stdout.write(`${startupLines(config, running).join('\n')}\n`);
  return exit;
};

const createClient = async (config: Config, args: ReadonlyArray<string>): Promise<number> => {
  const at = args.indexOf('--name');
  const name = at >= 0 ? args[at + 1] : undefined;
  if (name === undefined || name.trim() === '' || name.length > 100) return fail('clients create needs --name <1 to 100 characters>');
  if (config.store === 'memory') {
    return fail('clients create needs a persistent store (DEBTKIT_STORE=mongo): a memory store forgets the client when this command exits');
  }
  // The server's composition path (its store, its token use cases), stopped before the app: no bureau needed.
  const { container, close } = await composeContainer({ config });
  try {
    const created = await resolve(container, HTTP.ClientAccess).createClient({
      name,
      environment: config.environment,
      apiVersion: versioning.latest,
    })();
    if (E.isLeft(created)) return fail(`creating the client failed: ${created.left.message}`);
    process.stdout.write(`${JSON.stringify({ client: created.right.client, token: created.right.token }, null, 2)}\n`);
    return 0;
  } finally {
    await close();
  }
};

/**
 * `--name value` pairs into an object of strings; `undefined` names the first
 * argument that is not one of `known` or has no value.
 */
const optionsOf = (args: ReadonlyArray<string>, known: ReadonlyArray<string>): Record<string, string> | string => {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i] ?? '';
    const value = args[i + 1];
    if (!flag.startsWith('--') || !known.includes(flag.slice(2))) return `unknown argument "${flag}"`;
    if (value === undefined || value.startsWith('--')) return `${flag} needs a value`;
    out[flag.slice(2).replace(/-/g, '_')] = value;
  }
  return out;
};

/** Run an admin command on the persistent store, printing its answer as the admin API would. */
const adminCommand = async (
  config: Config,
  name: string,
  run: (access: ClientAccess) => Promise<E.Either<DomainError, unknown>>,
): Promise<number> => {
  if (config.store === 'memory')
    return fail(`${name} needs a persistent store (DEBTKIT_STORE=mongo): a memory store is empty when this command starts`);
  const { container, close } = await composeContainer({ config });
  try {
    const answer = await run(resolve(container, HTTP.ClientAccess));
    if (E.isLeft(answer)) {
      const details = answer.left._tag === 'validation_error' ? (answer.left.details ?? []) : [];
      return fail(`${name} failed: ${answer.left.message}${details.map((d) => `; --${d.path.replace(/_/g, '-')} ${d.message}`).join('')}`);
    }
    process.stdout.write(`${JSON.stringify(answer.right, null, 2)}\n`);
    return 0;
  } finally {
    await close();
  }
};

/** A decoded command-line value, or the one line that says what is wrong with it. */
const decodeArgs = <A>(codec: t.Decoder<unknown, A>, value: unknown): E.Either<string, A> =>
  E.mapLeft((errors: t.Errors) =>
    toDetails(errors)
      .map((d) => `--${d.path.replace(/_/g, '-')} ${d.message}`)
      .join('; '),
  )(codec.decode(value));

const rollToken = async (config: Config, args: ReadonlyArray<string>): Promise<number> => {
  const options = optionsOf(args, ['token-id', 'expires-in-seconds']);
  if (typeof options === 'string') return fail(`tokens roll: ${options}`);
  const tokenId = queryIdOf('token').decode(options['token_id']);
  if (E.isLeft(tokenId)) return fail('tokens roll needs --token-id <a token id>');
  const seconds = options['expires_in_seconds'];
  const body = decodeArgs(
    RollTokenBody,
    seconds === undefined ? {} : { expires_in_seconds: /^[0-9]{1,7}$/.test(seconds) ? Number(seconds) : seconds },
  );
  if (E.isLeft(body)) return fail(`tokens roll: ${body.left}`);
  return adminCommand(config, 'tokens roll', async (access) => {
    const rolled = await access.rollToken(tokenId.right, body.right.expires_in_seconds)();
    return E.map((r: RolledToken) => ({
      token_id: r.tokenId,
      token: r.token,
      replaces: { token_id: r.replaces.tokenId, expires_at: r.replaces.expiresAt },
    }))(rolled);
  });
};

const setClientVersion = async (config: Config, args: ReadonlyArray<string>): Promise<number> => {
  const options = optionsOf(args, ['client-id', 'api-version']);
  if (typeof options === 'string') return fail(`clients set-version: ${options}`);
  const clientId = queryIdOf('client').decode(options['client_id']);
  if (E.isLeft(clientId)) return fail('clients set-version needs --client-id <a client id>');
  const body = decodeArgs(PatchClientBody, options['api_version'] === undefined ? {} : { api_version: options['api_version'] });
  if (E.isLeft(body)) return fail(`clients set-version: ${body.left}`);
  return adminCommand(config, 'clients set-version', (access) => access.changeClientApiVersion(clientId.right, body.right.api_version)());
};

const auditLog = async (config: Config, args: ReadonlyArray<string>): Promise<number> => {
  const options = optionsOf(args, ['limit', 'starting-after', 'action']);
  if (typeof options === 'string') return fail(`audit: ${options}`);
  const query = decodeArgs(AuditEventsQuery, options);
  if (E.isLeft(query)) return fail(`audit: ${query.left}`);
  return adminCommand(config, 'audit', async (access) => {
    const page = await access.listAuditEvents(query.right, query.right.action === undefined ? {} : { action: query.right.action })();
    return E.map((p: Page<AuditEvent>) => ({ audit_events: p.items, has_more: p.hasMore }))(page);
  });
};

const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const [command = 'serve', ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = loadConfig(process.env);
  if (E.isLeft(config)) return fail(config.left);
  try {
    if (command === 'serve') return await serve(config.right);
    if (command === 'clients' && rest[0] === 'create') return await createClient(config.right, rest.slice(1));
    if (command === 'clients' && rest[0] === 'set-version') return await setClientVersion(config.right, rest.slice(1));
    if (command === 'tokens' && rest[0] === 'roll') return await rollToken(config.right, rest.slice(1));
    if (command === 'audit') return await auditLog(config.right, rest);
    return fail(`unknown command "${argv.join(' ')}"\n${USAGE}`);
  } catch (err) {
    // A StartupError is written for the operator; anything else is summarised, never dumped.
    return fail(err instanceof StartupError ? err.message : `failed to start: ${describeError(err)}`);
  }
};

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => process.exit(fail(describeError(err))),
);
