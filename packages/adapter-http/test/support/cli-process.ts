/**
 * `debtkit serve` as a child process (the built CLI, as `npm start` runs it),
 * for the tests that need real processes: several API processes on one
 * database, restarts, a database that is down at start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';

// From dist/test/support/ (compiled) or test/support/ (run from source), the package root.
const here = fileURLToPath(import.meta.url);
const packageRoot = fileURLToPath(new URL(here.includes('/dist/test/') ? '../../../' : '../../', import.meta.url));
export const CLI = `${packageRoot}dist/src/main/cli.js`;
export const cliIsBuilt = (): boolean => existsSync(CLI);

/** How a one-shot CLI command ended. */
export interface CliOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run one CLI command (`clients create …`, `tokens roll …`) with only `env` (and PATH), to its exit. */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<CliOutcome> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });

/**
 * For a suite of CLI processes on mongo (call inside its `describe`): the suite
 * is skipped, visibly, when the CLI is not built; otherwise a wire-protocol test
 * server runs for it. Answers the running server (after `before`).
 */
export const useCliOnWireServer = (): (() => WireServer) => {
  let server: WireServer | undefined;
  before(async function () {
    if (!cliIsBuilt()) {
      console.log('    (skipped: the CLI is not built; run `npx tsc -b` first)');
      this.skip();
    }
    server = await startWireServer();
  });
  after(async () => {
    await server?.stop();
  });
  return () => {
    if (server === undefined) throw new Error('useCliOnWireServer: the wire-protocol test server has not started');
    return server;
  };
};

export interface CliProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export interface StartCliOptions {
  /** Node's own options before the script (e.g. `['--import', <module>]`). */
  readonly nodeArgs?: ReadonlyArray<string>;
}

/** Spawn the CLI and wait for its listen line (no sleeps: the line is the signal). */
export const startCli = (env: Record<string, string>, options: StartCliOptions = {}): Promise<CliProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI, 'serve'], {
      env: { PATH: process.env['PATH'] ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const stop = async (): Promise<number | null> => {
      child.kill('SIGTERM');
      return exited;
    };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /^debtkit listening on (http:\/\/\S+) \((?:sandbox|production), \w+ store\)$/m.exec(out);
      if (match?.[1] !== undefined) resolve({ child, url: match[1], stdout: () => out, stderr: () => err, exited, stop });
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    void exited.then((code) => reject(new Error(`debtkit exited (${code}) before listening:\n${out}\n${err}`)));
  });

/** The demo token a started server printed. */
export const demoTokenOf = (cli: CliProcess): string => {
  const token = /^demo token: (\S+)$/m.exec(cli.stdout())?.[1];
  if (token === undefined) throw new Error(`no demo token printed:\n${cli.stdout()}`);
  return token;
};
