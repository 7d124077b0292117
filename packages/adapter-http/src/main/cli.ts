#!/usr/bin/env node
/**
 * The `debtkit` command.
 *
 *   debtkit [serve]                  start the API (configuration: environment variables, DESIGN 3)
 *   debtkit clients create --name X  create a client and print it with its first token (persistent store only)
 *   debtkit help
 *
 * Exit status 1 with one line on stderr for a bad configuration or a failed start.
 */
import * as E from 'fp-ts/lib/Either.js';
import { versioning } from '@debtkit/core';
import { loadConfig, type Config } from './config.js';
import { HTTP, StartupError, resolve } from './container.js';
import { composeContainer } from './composition.js';
import { startServer, startupLines } from './server.js';
import { createServerLogger } from './log-destination.js';
import { startTracing } from './tracing.js';

const USAGE = `usage:
  debtkit [serve]                  start the API server
  debtkit clients create --name X  create a client and print its first token (needs DEBTKIT_STORE=mongo)
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
      const flushTraces = (): Promise<void> => tracing.shutdown().catch((err: unknown) => logger.warn({ err }, 'flushing the traces failed'));
      running.shutdown().then(
        () => flushTraces().then(() => log.close()).then(() => resolveExit(0)),
        () => flushTraces().then(() => log.close()).then(() => resolveExit(1)),
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
    const created = await resolve(container, HTTP.ClientAccess).createClient({ name, environment: config.environment, apiVersion: versioning.latest })();
    if (E.isLeft(created)) return fail(`creating the client failed: ${created.left.message}`);
    process.stdout.write(`${JSON.stringify({ client: created.right.client, token: created.right.token }, null, 2)}\n`);
    return 0;
  } finally {
    await close();
  }
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
