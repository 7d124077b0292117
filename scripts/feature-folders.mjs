#!/usr/bin/env node
// One-off restructuring of packages/core/src from layers (domain/, application/,
// ports/, testing/) into feature folders (docs/architecture.md). Moves each file
// with `git mv` and rewrites every relative import in packages/core (src and
// test) to the file's new place. Refuses to run when a file in a layer folder
// has no destination, so nothing is left behind silently.
//   node scripts/feature-folders.mjs            # move and rewrite
//   node scripts/feature-folders.mjs --dry-run  # print the moves
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const core = join(root, 'packages/core');
const dryRun = process.argv.includes('--dry-run');

/** Destination (relative to packages/core/src) of each file, by its old path. */
const MOVES = {
  // shared: primitives, errors, codecs, the unit of work, paging, the store table
  'domain/primitives.ts': 'shared/primitives.ts',
  'domain/codec.ts': 'shared/codec.ts',
  'domain/constructors.ts': 'shared/constructors.ts',
  'domain/errors.ts': 'shared/errors.ts',
  'domain/idempotency.ts': 'shared/idempotency.ts',
  'domain/quotas.ts': 'shared/quotas.ts',
  'ports/paging.ts': 'shared/paging.ts',
  'ports/owned-read.ts': 'shared/owned-read.ts',
  'ports/clock.ts': 'shared/clock.ts',
  'ports/store-health.ts': 'shared/store-health.ts',
  'ports/idempotency-store.ts': 'shared/idempotency-store.ts',
  'ports/tokens.ts': 'shared/store-ports.ts',
  'ports/secret-generator.ts': 'shared/secret-generator.ts',
  'ports/unit-of-work.ts': 'shared/unit-of-work.ts',
  'application/deps.ts': 'shared/deps.ts',
  'application/requests.ts': 'shared/requests.ts',
  'application/transactions.ts': 'shared/transactions.ts',
  'testing/paging.contract.ts': 'shared/paging.contract.ts',
  'testing/store.contract.ts': 'shared/store.contract.ts',
  'testing/owned-reads.contract.ts': 'shared/owned-reads.contract.ts',
  'testing/store-health.contract.ts': 'shared/store-health.contract.ts',
  'testing/concurrency.contract.ts': 'shared/concurrency.contract.ts',
  'testing/quotas.contract.ts': 'shared/quotas.contract.ts',
  'testing/idempotency-store.contract.ts': 'shared/idempotency-store.contract.ts',
  'testing/atomicity.contract.ts': 'shared/atomicity.contract.ts',
  // users (and their erasure)
  'domain/user.ts': 'users/user.ts',
  'domain/erasure.ts': 'users/erasure.ts',
  'application/users.ts': 'users/use-cases.ts',
  'application/erasure.ts': 'users/erasure.use-cases.ts',
  'ports/user-repository.ts': 'users/user-repository.ts',
  'ports/erasure-registry.ts': 'users/erasure-registry.ts',
  'testing/user-repository.contract.ts': 'users/user-repository.contract.ts',
  'testing/erasure-registry.contract.ts': 'users/erasure-registry.contract.ts',
  // clients, their tokens and the audit log
  'domain/client.ts': 'clients/client.ts',
  'domain/audit.ts': 'clients/audit.ts',
  'application/clients.ts': 'clients/use-cases.ts',
  'ports/client-repository.ts': 'clients/client-repository.ts',
  'ports/token-repository.ts': 'clients/token-repository.ts',
  'ports/audit-log.ts': 'clients/audit-log.ts',
  'ports/token-hasher.ts': 'clients/token-hasher.ts',
  'testing/client-repository.contract.ts': 'clients/client-repository.contract.ts',
  'testing/token-repository.contract.ts': 'clients/token-repository.contract.ts',
  'testing/audit-log.contract.ts': 'clients/audit-log.contract.ts',
  // accounts
  'domain/account.ts': 'accounts/account.ts',
  'domain/payment-history.ts': 'accounts/payment-history.ts',
  'application/accounts.ts': 'accounts/use-cases.ts',
  'ports/account-repository.ts': 'accounts/account-repository.ts',
  'testing/account-repository.contract.ts': 'accounts/account-repository.contract.ts',
  // credit scores
  'domain/credit-score.ts': 'credit-scores/credit-score.ts',
  'domain/credit-factors.ts': 'credit-scores/credit-factors.ts',
  'application/credit-scores.ts': 'credit-scores/use-cases.ts',
  'ports/credit-score-repository.ts': 'credit-scores/credit-score-repository.ts',
  'testing/credit-score-repository.contract.ts': 'credit-scores/credit-score-repository.contract.ts',
  // bureau authentication and the credit report
  'domain/bureau-flow.machine.ts': 'bureau/bureau-flow.machine.ts',
  'domain/credit-report.ts': 'bureau/credit-report.ts',
  'application/bureau.ts': 'bureau/use-cases.ts',
  'ports/bureau-flow-repository.ts': 'bureau/bureau-flow-repository.ts',
  'ports/credit-bureau.ts': 'bureau/credit-bureau.ts',
  'testing/bureau-flow-repository.contract.ts': 'bureau/bureau-flow-repository.contract.ts',
  // payment plans: payoff planning, progress, comparison, outlook
  'domain/payment-plan.ts': 'payment-plans/payment-plan.ts',
  'domain/payoff-plan.ts': 'payment-plans/payoff-plan.ts',
  'domain/payoff-comparison.ts': 'payment-plans/payoff-comparison.ts',
  'domain/payoff-progress.ts': 'payment-plans/payoff-progress.ts',
  'domain/plan-size.ts': 'payment-plans/plan-size.ts',
  'domain/credit-outlook.ts': 'payment-plans/credit-outlook.ts',
  'application/payment-plans.ts': 'payment-plans/use-cases.ts',
  'application/payoff-planning.ts': 'payment-plans/payoff-planning.use-cases.ts',
  'application/credit-outlook.ts': 'payment-plans/credit-outlook.use-cases.ts',
  'application/computations.ts': 'payment-plans/computations.ts',
  'ports/payment-plan-repository.ts': 'payment-plans/payment-plan-repository.ts',
  'ports/plan-payment-repository.ts': 'payment-plans/plan-payment-repository.ts',
  'testing/payment-plan-repository.contract.ts': 'payment-plans/payment-plan-repository.contract.ts',
  'testing/plan-payment-repository.contract.ts': 'payment-plans/plan-payment-repository.contract.ts',
  // webhooks and events
  'domain/webhook.ts': 'webhooks/webhook.ts',
  'application/events.ts': 'webhooks/events.use-cases.ts',
  'application/webhook-endpoints.ts': 'webhooks/use-cases.ts',
  'application/webhook-health.ts': 'webhooks/webhook-health.ts',
  'application/webhook-requests.ts': 'webhooks/webhook-requests.ts',
  'ports/event-outbox.ts': 'webhooks/event-outbox.ts',
  'ports/webhook-endpoint-repository.ts': 'webhooks/webhook-endpoint-repository.ts',
  'ports/webhook-delivery-repository.ts': 'webhooks/webhook-delivery-repository.ts',
  'ports/webhook-url-policy.ts': 'webhooks/webhook-url-policy.ts',
  'testing/webhook-stores.contract.ts': 'webhooks/webhook-stores.contract.ts',
  // content (learning modules and articles)
  'application/content.ts': 'content/use-cases.ts',
  'ports/content-repository.ts': 'content/content-repository.ts',
  'testing/content-repository.contract.ts': 'content/content-repository.contract.ts',
  // the debt calculator
  'domain/debt-calculator.ts': 'calculator/debt-calculator.ts',
  'application/debt-calculator.ts': 'calculator/use-cases.ts',
  // the demo data
  'application/demo-seed.ts': 'demo/demo-seed.ts',
  'testing/demo-seed.contract.ts': 'demo/demo-seed.contract.ts',
  // added after the move, on branches that began before it
  'application/webhook-replay.ts': 'webhooks/replay.use-cases.ts',
  'application/webhook-samples.ts': 'webhooks/webhook-samples.ts',
  'application/sandbox.ts': 'sandbox/use-cases.ts',
  'application/idempotent-change.ts': 'shared/idempotent-change.ts',
  'domain/sandbox-clock.ts': 'sandbox/sandbox-clock.ts',
  // the two lists of everything
  'application/index.ts': 'application.ts',
  'ports/index.ts': 'ports.ts',
};

/** Extra moves given on the command line as old=new (for files added after this table was written). */
for (const arg of process.argv.slice(2)) {
  const m = /^([^=]+\.ts)=([^=]+\.ts)$/.exec(arg);
  if (m) MOVES[m[1]] = m[2];
}

const LAYERS = ['domain', 'application', 'ports'];
const src = join(core, 'src');
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });

const existing = walk(src).map((p) => relative(src, p).split('\\').join('/'));
const unmapped = existing.filter((p) => LAYERS.includes(p.split('/')[0]) && !(p in MOVES));
if (unmapped.length > 0) {
  console.error(`no destination for: ${unmapped.join(', ')}\nadd them to MOVES or pass old=new`);
  process.exit(1);
}
const pending = Object.entries(MOVES).filter(([from]) => existing.includes(from));

// Every file's place before the move (its old path) and after it (its new path),
// absolute. A file already at its new place (moved, then edited on a branch that
// began before the move, then merged) still resolves its imports from its old
// place, so those imports are rewritten too: the script can be run after each merge.
const oldOf = new Map(Object.entries(MOVES).map(([from, to]) => [join(src, to), join(src, from)]));
const files = [...walk(src), ...walk(join(core, 'test'))];
const place = new Map(
  files.map((f) => {
    const rel = relative(src, f).split('\\').join('/');
    const moving = pending.find(([from]) => from === rel);
    return [f, { old: oldOf.get(f) ?? f, next: moving ? join(src, moving[1]) : f }];
  }),
);
const newPathOfOld = (oldAbs) => {
  const rel = relative(src, oldAbs).split('\\').join('/');
  if (rel in MOVES) return join(src, MOVES[rel]);
  return existsSync(oldAbs) ? oldAbs : undefined;
};

const SPEC = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\2/g;
const toSpec = (fromFile, target) => {
  let r = relative(dirname(fromFile), target).split('\\').join('/');
  if (!r.startsWith('.')) r = `./${r}`;
  return r.replace(/\.ts$/, '.js');
};

const rewritten = new Map();
let unresolved = 0;
for (const file of files) {
  const { old, next } = place.get(file);
  const code = readFileSync(file, 'utf8');
  const out = code.replace(SPEC, (whole, lead, quote, spec) => {
    const here = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    // An import that resolves where the file is now, to a file that is not about to move, is right already.
    if (existsSync(here) && !pending.some(([from]) => join(src, from) === here)) {
      return next === file ? whole : `${lead}${quote}${toSpec(next, here)}${quote}`;
    }
    const fromOld = resolve(dirname(old), spec).replace(/\.js$/, '.ts');
    const target = newPathOfOld(fromOld) ?? (existsSync(here) ? newPathOfOld(here) : undefined);
    if (target === undefined) {
      if (!file.endsWith('layer.test.ts')) {
        console.warn(`${relative(root, file)}: unresolved import ${spec}`);
        unresolved += 1;
      }
      return whole;
    }
    return `${lead}${quote}${toSpec(next, target)}${quote}`;
  });
  if (out !== code) rewritten.set(file, out);
}

for (const [from, to] of pending) console.log(`${from} → ${to}`);
if (dryRun) process.exit(unresolved > 0 ? 1 : 0);
for (const [from, to] of pending) {
  execFileSync('mkdir', ['-p', dirname(join(src, to))]);
  execFileSync('git', ['mv', join(src, from), join(src, to)], { cwd: root });
}
for (const [file, code] of rewritten) writeFileSync(place.get(file).next, code);
for (const layer of LAYERS) {
  try {
    execFileSync('rmdir', [join(src, layer)], { stdio: 'ignore' });
  } catch {
    // not empty or already gone
  }
}
console.log(`${pending.length} files moved, ${rewritten.size} files' imports rewritten${unresolved ? `, ${unresolved} unresolved` : ''}`);
process.exitCode = unresolved > 0 ? 1 : 0;
