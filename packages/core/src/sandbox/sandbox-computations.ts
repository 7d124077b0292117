/**
 * Where a sandbox advance computes its months (docs/decisions/tenancy.md, a fair share;
 * docs/sandbox-over-time.md): the pure projection of one month (`projectMonth`: the money
 * engine's month over every open loan, and each moved account's view on the
 * month's date, whose `expected_payoff_date` is a minimum-only projection of
 * up to 600 months) is the advance's CPU-heavy part. The use case takes it from
 * `deps.sandboxComputations`, which defaults to the in-thread function, as
 * plan creation takes its schedule from `computations`
 * (payment-plans/computations.ts); the HTTP adapter passes its worker-thread
 * pool. Input and answer are plain data (structured-cloneable).
 */
import * as E from 'fp-ts/lib/Either.js';
import { projectMonth, type MonthInput, type ProjectedMonth } from './sandbox-clock.js';

export interface SandboxComputations {
  /** One month of an advance over the accounts read in its transaction (`projectMonth`). */
  readonly sandboxMonth: (input: MonthInput) => Promise<E.Either<never, ProjectedMonth>>;
}

/** The domain function, run on the caller's thread: the default. */
export const inThreadSandboxComputations: SandboxComputations = {
  sandboxMonth: (input) => Promise.resolve(E.right(projectMonth(input))),
};

/** The sandbox's own dependencies beyond the kernel's `ApplicationDeps` (`createApplication` takes both). */
export interface SandboxDeps {
  /** Where an advance's months are computed; default: in this thread. */
  readonly sandboxComputations?: SandboxComputations;
}

/** The computations an advance runs: the ones given, else the in-thread ones. */
export const sandboxComputationsOf = (deps: SandboxDeps): SandboxComputations => deps.sandboxComputations ?? inThreadSandboxComputations;
