/**
 * The CPU-heavy pure computations of the use cases (docs/decisions/tenancy.md): a plan's
 * schedule, the comparison of strategies, a plan's credit outlook. Each use
 * case that runs one takes it from `deps.computations`, which defaults to the
 * in-thread functions below, so an embedding service that calls core directly
 * gets exactly the domain's answers with nothing else to set up. The HTTP
 * adapter passes a worker-thread pool instead (adapter-http/src/compute), so a
 * light request is never stuck on the event loop behind another client's
 * computation. Inputs and answers are plain data (structured-cloneable).
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Conflict, ValidationError } from '../shared/errors.js';
import type { AccountRecord } from '../accounts/account.js';
import { planPayoff, type PayoffBudgetInput, type PayoffPlanInput, type PayoffPlanResult } from './payoff-plan.js';
import { comparePayoffStrategies, type PaymentPlanComparison } from './payoff-comparison.js';
import { creditOutlook, type CreditOutlook, type CreditOutlookInput } from './credit-outlook.js';

export interface Computations {
  readonly planPayoff: (input: PayoffPlanInput) => Promise<E.Either<ValidationError, PayoffPlanResult>>;
  readonly comparePayoffStrategies: (
    input: PayoffBudgetInput,
    accounts: ReadonlyArray<AccountRecord>,
  ) => Promise<E.Either<ValidationError, PaymentPlanComparison>>;
  readonly creditOutlook: (input: CreditOutlookInput) => Promise<E.Either<Conflict, CreditOutlook>>;
}

/** The domain functions, run on the caller's thread: the default. */
export const inThreadComputations: Computations = {
  planPayoff: (input) => Promise.resolve(planPayoff(input)),
  comparePayoffStrategies: (input, accounts) => Promise.resolve(comparePayoffStrategies(input, accounts)),
  creditOutlook: (input) => Promise.resolve(creditOutlook(input)),
};

/** The computations a use case runs: the ones given, else the in-thread ones. */
export const computationsOf = (deps: { readonly computations?: Computations }): Computations => deps.computations ?? inThreadComputations;
