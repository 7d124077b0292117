/**
 * The calculator feature's endpoints (docs/decisions/payoff-and-outlook.md): ONE list of `API_ENDPOINTS` (api-endpoints.ts;
 * docs/adding-a-resource.md). Paths, methods and shapes of the spec's endpoints are exactly the spec's.
 */
import { DebtCalculatorBody, noChange } from '@debtkit/core';
import { type Endpoint, endpoint } from './endpoint.js';

export const CALCULATOR_ENDPOINTS: ReadonlyArray<Endpoint> = [
  endpoint({
    method: 'POST',
    path: '/api/debt_calculator',
    summary: 'Months to pay off a debt, or the payment to pay it off in given months',
    tag: 'Debt Calculator',
    pathIds: [],
    body: DebtCalculatorBody,
    status: 200,
    response: { kind: 'debt_calculation' },
    errors: ['validation_error'],
    run: (app, i) => noChange(app.calculateDebt(i.body)),
  }),
];
