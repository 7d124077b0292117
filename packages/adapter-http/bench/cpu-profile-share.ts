/**
 * The event loop's share of a server's CPU profile (docs/decisions/tenancy.md, a fair
 * share): `npm run bench:isolation` with BENCH_SERVER_CPU_PROFILE=<dir> writes one
 * `.cpuprofile` per run (the server's main thread: its event loop); this prints how busy
 * that thread was in each second of the run, and, over a window of seconds, the share
 * of the time spent under each frame whose function name or file contains a pattern.
 *
 *   node packages/adapter-http/dist/bench/cpu-profile-share.js <file.cpuprofile> [from-s to-s [pattern,…]]
 *
 * e.g. the 10 s beside an advancing client:
 *   … 17 27 "(idle),(garbage collector),sandbox/use-cases,applyMonth,toAccountView,sandboxMonth"
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: ReadonlyArray<number>;
}
interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>;
  readonly samples: ReadonlyArray<number>;
  readonly timeDeltas: ReadonlyArray<number>;
}

const [file, fromArg, toArg, patternsArg] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: cpu-profile-share <file.cpuprofile> [from-s to-s [pattern,…]]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parents = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
const isIdle = (id: number): boolean => nodes.get(id)?.callFrame.functionName === '(idle)';

// Busy share per second of the run.
const perSecond: Array<{ busy: number; all: number }> = [];
let t = 0;
const windowed = new Map<number, number>();
const from = Number(fromArg ?? 0);
const to = Number(toArg ?? Number.POSITIVE_INFINITY);
let windowTotal = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  t += dt;
  const second = Math.floor(t / 1e6);
  const slot = (perSecond[second] ??= { busy: 0, all: 0 });
  slot.all += dt;
  if (!isIdle(id)) slot.busy += dt;
  if (t / 1e6 >= from && t / 1e6 < to) {
    windowTotal += dt;
    windowed.set(id, (windowed.get(id) ?? 0) + dt);
  }
});
console.log(`busy per second: ${perSecond.map((s, i) => `${i}:${Math.round((100 * s.busy) / Math.max(1, s.all))}%`).join(' ')}`);

// The window's time under frames matching each pattern (a sample counts once per pattern).
for (const pattern of (patternsArg ?? '').split(',').filter((p) => p !== '')) {
  let under = 0;
  for (const [id, dt] of windowed) {
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const frame = nodes.get(at)?.callFrame;
      if (frame !== undefined && `${frame.functionName} ${frame.url}`.includes(pattern)) {
        under += dt;
        break;
      }
    }
  }
  console.log(`${pattern.padEnd(40)} ${((100 * under) / Math.max(1, windowTotal)).toFixed(1)}%`);
}
