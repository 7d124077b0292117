/**
 * # Your own credit bureau
 *
 * debtkit talks to a credit bureau through one port, `CreditBureau` (see
 * packages/core/README.md for its contract). The sandbox bureau serves test
 * data; a real deployment binds its own adapter. Here a lender embeds the API
 * with `LenderCreditBureau`, an adapter over the lender's bureau files (a map
 * here; an HTTP client to the bureau in real life), by loading one Inversify
 * module that `rebind`s `PORTS.CreditBureau` on the same composition
 * (`compose`) the `debtkit` server uses.
 *
 * Because a real bureau is bound, the app runs with `environment: 'production'`
 * without `DEBTKIT_BUREAU=sandbox` (without one it would refuse to start).
 * The example then walks a user through the bureau flow over HTTP: the
 * lender's one-time code passes where the sandbox's `123456` does not, and the
 * credit score is the one in the lender's file.
 *
 * Run it: `npm run build && node examples/dist/custom-bureau/main.js`.
 * The test suite runs it (examples/test/custom-bureau.test.ts).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ContainerModule, injectable } from 'inversify';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { PORTS, type CreditBureau, type CreditReport, bureauError, factorObject, validationError } from '@debtkit/core';
import { compose } from '@debtkit/adapter-http';

/** What the lender's bureau knows about a person, by last name (a stand-in for its bureau API). */
interface BureauFile {
  readonly otp: string;
  readonly ssnLast4: string;
  readonly report: CreditReport;
}

const FILES: Readonly<Record<string, BureauFile>> = {
  lovelace: {
    otp: '271828',
    ssnLast4: '1815',
    report: {
      score: 742,
      payment_history: factorObject('payment_history', 98.5),
      credit_utilization: factorObject('credit_utilization', 12),
      derogatory_marks: factorObject('derogatory_marks', 0),
      credit_age: factorObject('credit_age', 9.2),
      credit_mix: factorObject('credit_mix', 3),
      new_credit: factorObject('new_credit', 1),
    },
  },
};

const fileOf = (lastName: string): BureauFile | undefined => FILES[lastName.trim().toLowerCase()];

/** The lender's adapter of core's `CreditBureau` port: errors are values, never throws. */
@injectable()
export class LenderCreditBureau implements CreditBureau {
  invoke: CreditBureau['invoke'] = (user) =>
    fileOf(user.last_name) === undefined ? TE.left(bureauError('The bureau has no file for this user')) : TE.right(undefined);

  verifyOtp: CreditBureau['verifyOtp'] = (user, code) => TE.right(fileOf(user.last_name)?.otp === code);

  verifyIdentity: CreditBureau['verifyIdentity'] = (user, answers) =>
    fileOf(user.last_name)?.ssnLast4 === answers.ssn_last4
      ? TE.right(undefined)
      : TE.left(validationError('Identity does not match', [{ path: 'ssn_last4', message: 'does not match the bureau file' }]));

  deleteIdentity: CreditBureau['deleteIdentity'] = () => TE.right(undefined);

  fetchReport: CreditBureau['fetchReport'] = (user) => {
    const file = fileOf(user.last_name);
    return file === undefined ? TE.left(bureauError('The bureau has no file for this user')) : TE.right(file.report);
  };
}

/** The lender's composition module: its bureau in place of whatever debtkit bound (the sandbox one, or none in production). */
export const lenderBureauModule = new ContainerModule(({ rebind }) => {
  rebind(PORTS.CreditBureau).to(LenderCreditBureau).inSingletonScope();
});

export const ADMIN_TOKEN = 'lender-admin-token-0123456789';

export interface CustomBureauResult {
  readonly sandboxOtpStatus: number;
  readonly lenderOtpStatus: number;
  readonly score: number;
  readonly paymentHistory: unknown;
}

export const main = async (log: (line: string) => void = console.log): Promise<CustomBureauResult> => {
  const { app, close } = await compose({ config: { environment: 'production', adminToken: ADMIN_TOKEN }, modules: [lenderBureauModule] });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(url + path, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
  };
  const expectOk = <A extends { status: number }>(what: string, res: A): A => {
    if (res.status >= 300) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res)}`);
    return res;
  };
  try {
    const created = expectOk('creating the client', await call('POST', '/admin/clients', ADMIN_TOKEN, { name: 'Lender app' }));
    const token = String(created.body['token']);
    const user = expectOk('creating the user', await call('POST', '/api/users', token, { first_name: 'Ada', last_name: 'Lovelace' }));
    const auth = `/api/users/${String(user.body['id'])}/bureau/auth`;
    expectOk('invoke', await call('POST', `${auth}/invoke`, token, { device_ip: '203.0.113.7' }));
    expectOk('consent', await call('POST', `${auth}/consent`, token, { accepted: true }));
    const sandboxOtp = await call('POST', `${auth}/validate_otp`, token, { code: '123456' });
    log(`sandbox one-time code 123456 → ${sandboxOtp.status}`);
    const lenderOtp = expectOk('validate_otp', await call('POST', `${auth}/validate_otp`, token, { code: '271828' }));
    log(`lender's one-time code → ${lenderOtp.status}`);
    expectOk('identity', await call('POST', `${auth}/identity`, token, { ssn_last4: '1815', date_of_birth: '1990-12-10' }));
    const score = expectOk('credit score', await call('GET', `/api/users/${String(user.body['id'])}/credit_scores`, token));
    log(`credit score from the lender's bureau: ${String(score.body['score'])}`);
    return { sandboxOtpStatus: sandboxOtp.status, lenderOtpStatus: lenderOtp.status, score: Number(score.body['score']), paymentHistory: score.body['payment_history'] };
  } finally {
    server.close();
    await close();
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
