/**
 * `npm run bench -- --against <ref>` (docs/performance.md, "Against a release",
 * round 5): another commit of debtkit, built once and kept, so that
 * its own bench server runs beside today's in the same alternating rounds and
 * its own pure timings beside today's.
 *
 * - The ref (a tag such as `round-3`, a branch or a commit) is resolved to its
 *   commit and checked out with `git worktree add --detach` outside the
 *   repository's tree: under `$DEBTKIT_BENCH_CACHE`, else
 *   `$XDG_CACHE_HOME/debtkit-bench`, else `~/.cache/debtkit-bench`, in a
 *   directory named by the commit. There it is installed (`npm ci`) and built
 *   (`npm run build`) once; a marker file records that the build finished and
 *   how long it took, so later runs reuse it (cached by commit). A directory
 *   left without the marker (an interrupted build) is removed and built again.
 * - Its bench server is its own `bench-server debtkit`, started from its build
 *   with its own demo seed; the routes are today's, addressed to its own demo
 *   user and account. Its answers are not compared with today's (a release may
 *   answer differently); only today's servers are checked equal.
 * - Its pure timings (the payoff plan, the comparison, the outlook) are its own
 *   timing modules, run in a child process of their own from its build, alternating
 *   three times with today's run the same way (the least median of each kept).
 */
import { execFileSync, fork, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PreparedRef {
  /** What was asked for (`round-3`). */
  readonly ref: string;
  readonly commit: string;
  /** The worktree with the ref's build. */
  readonly dir: string;
  /** Seconds `npm ci` and the build took (when this run built it, or when it was built). */
  readonly buildSeconds: number;
  /** Whether this run reused an earlier build. */
  readonly cached: boolean;
}

const MARKER = '.debtkit-bench-built.json';

const cacheRoot = (): string =>
  process.env['DEBTKIT_BENCH_CACHE'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'debtkit-bench');

const repositoryRoot = (): string => fileURLToPath(new URL('../../../../', import.meta.url));

const git = (args: ReadonlyArray<string>, cwd: string): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Run `command` in `cwd`, its output shown (a build prints errors worth reading); throws when it fails. */
const run = (command: string, args: ReadonlyArray<string>, cwd: string): void => {
  const done = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (status ${done.status})`);
};

/** The ref's build, made when missing. */
export const prepareRef = (ref: string): PreparedRef => {
  const repo = repositoryRoot();
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', `${ref}^{commit}`], repo);
  } catch {
    throw new Error(`--against ${ref}: no such commit, tag or branch in ${repo}`);
  }
  const dir = join(cacheRoot(), commit);
  if (dir.startsWith(repo)) throw new Error(`the bench cache ${dir} is inside the repository; set DEBTKIT_BENCH_CACHE outside it`);
  const marker = join(dir, MARKER);
  if (existsSync(marker)) {
    const { buildSeconds } = JSON.parse(readFileSync(marker, 'utf8')) as { buildSeconds: number };
    return { ref, commit, dir, buildSeconds, cached: true };
  }
  if (existsSync(dir)) {
    // An interrupted build: start again from a clean checkout.
    try {
      git(['worktree', 'remove', '--force', dir], repo);
    } catch {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  git(['worktree', 'prune'], repo);
  mkdirSync(cacheRoot(), { recursive: true });
  console.log(`--against ${ref}: building ${commit.slice(0, 7)} once in ${dir} (npm ci, npm run build)`);
  const started = Date.now();
  git(['worktree', 'add', '--detach', dir, commit], repo);
  run('npm', ['ci', '--no-audit', '--no-fund'], dir);
  run('npm', ['run', 'build'], dir);
  const buildSeconds = Math.round((Date.now() - started) / 100) / 10;
  writeFileSync(marker, `${JSON.stringify({ ref, commit, buildSeconds, builtAt: new Date().toISOString() })}\n`);
  return { ref, commit, dir, buildSeconds, cached: false };
};

/** The ref's own bench server (`bench-server debtkit` from its build), with today's servers' node flags; answers like today's (bench-server.ts's messages). */
export const forkRefServer = (prepared: PreparedRef, execArgv: ReadonlyArray<string>): ChildProcess =>
  fork(join(prepared.dir, 'packages/adapter-http/dist/bench/bench-server.js'), ['debtkit'], {
    cwd: prepared.dir,
    execArgv: [...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

export interface RefTimings {
  readonly payoffMedianMs: number;
  readonly comparisonMedianMs: number;
  readonly outlookMedianMs: number;
}

/** The pure timings of the build in `dir` (the ref's worktree, or this checkout), in a process of their own. */
export const pureTimingsIn = (dir: string): RefTimings => {
  const bench = join(dir, 'packages/adapter-http/dist/bench');
  const script = [
    `const p = await import(${JSON.stringify(join(bench, 'payoff-timing.js'))});`,
    `const c = await import(${JSON.stringify(join(bench, 'payoff-comparison-timing.js'))});`,
    `const o = await import(${JSON.stringify(join(bench, 'credit-outlook-timing.js'))});`,
    'const payoff = p.timePayoffPlan(), comparison = c.timePayoffComparison(), outlook = o.timeCreditOutlook();',
    'process.stdout.write(JSON.stringify({ payoffMedianMs: payoff.medianMs, comparisonMedianMs: comparison.medianMs, outlookMedianMs: outlook.medianMs }));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
  return JSON.parse(out) as RefTimings;
};

/**
 * The ref's pure timings beside today's, alternating `rounds` times (today, ref, today, …),
 * each in a fresh process from its own build, the least median of each kept: the
 * machine's other load only adds time, and falls on both alike.
 */
export const alternatePureTimings = (prepared: PreparedRef, rounds: number): { readonly today: RefTimings; readonly ref: RefTimings } => {
  const least = (runs: ReadonlyArray<RefTimings>): RefTimings => ({
    payoffMedianMs: Math.min(...runs.map((r) => r.payoffMedianMs)),
    comparisonMedianMs: Math.min(...runs.map((r) => r.comparisonMedianMs)),
    outlookMedianMs: Math.min(...runs.map((r) => r.outlookMedianMs)),
  });
  const today: RefTimings[] = [];
  const ref: RefTimings[] = [];
  for (let i = 0; i < rounds; i++) {
    today.push(pureTimingsIn(repositoryRoot()));
    ref.push(pureTimingsIn(prepared.dir));
  }
  return { today: least(today), ref: least(ref) };
};
