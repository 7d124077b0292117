/** The debt calculator (docs/decisions/payoff-and-outlook.md), not user-scoped. */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { type ValidationError } from '../shared/errors.js';
import { DebtCalculation, calculateByMonths, calculateByPayment } from './debt-calculator.js';
import type { DebtCalculatorBody } from './requests.js';
import { ApplicationDeps, today } from '../shared/deps.js';

export const calculateDebt =
  (deps: Pick<ApplicationDeps, 'clock'>) =>
  (body: DebtCalculatorBody): TE.TaskEither<ValidationError, DebtCalculation> =>
    TE.fromEither(
      'months' in body
        ? calculateByMonths({ balance: body.balance, apr: body.apr, months: body.months, today: today(deps.clock) })
        : calculateByPayment({ balance: body.balance, apr: body.apr, monthlyPayment: body.monthly_payment, today: today(deps.clock) }),
    );

/** The debt calculator: this feature's use cases bound to `deps`, as `createApplication` spreads them (docs/adding-a-resource.md). */
export const calculatorUseCases = (deps: ApplicationDeps) => ({
  calculateDebt: calculateDebt(deps),
});
