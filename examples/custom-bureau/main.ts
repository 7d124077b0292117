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
import { createClient, unwrap } from '@debtkit/client';
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
  readonly score: number | null;
  readonly paymentHistory: unknown;
}

export const main = async (log: (line: string) => void = console.log): Promise<CustomBureauResult> => {
  const { app, close } = await compose({ config: { environment: 'production', adminToken: ADMIN_TOKEN }, modules: [lenderBureauModule] });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const admin = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    // The admin API is the operator's, not in the client's document: plain fetch.
    const response = await fetch(url + path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  try {
    const created = await admin('/admin/clients', { name: 'Lender app' });
    // The lender's application calls the API with its new token, through the typed client.
    const client = createClient({ baseUrl: url, token: String(created['token']), apiVersion: '2026-11-26' });
    const user = await unwrap(client.POST('/api/users', { body: { first_name: 'Ada', last_name: 'Lovelace' } }));
    const path = { params: { path: { id: user.id } } };
    await unwrap(client.POST('/api/users/{id}/bureau/auth/invoke', { ...path, body: { device_ip: '203.0.113.7' } }));
    await unwrap(client.POST('/api/users/{id}/bureau/auth/consent', { ...path, body: { accepted: true } }));
    const sandboxOtp = await client.POST('/api/users/{id}/bureau/auth/validate_otp', { ...path, body: { code: '123456' } });
    log(`sandbox one-time code 123456 → ${sandboxOtp.response.status}`);
    const lenderOtp = await client.POST('/api/users/{id}/bureau/auth/validate_otp', { ...path, body: { code: '271828' } });
    if (lenderOtp.error !== undefined) throw new Error(`validate_otp answered ${lenderOtp.response.status}: ${lenderOtp.error.error.code}`);
    log(`lender's one-time code → ${lenderOtp.response.status}`);
    await unwrap(
      client.POST('/api/users/{id}/bureau/auth/identity', { ...path, body: { ssn_last4: '1815', date_of_birth: '1990-12-10' } }),
    );
    const score = await unwrap(client.GET('/api/users/{id}/credit_scores', path));
    log(`credit score from the lender's bureau: ${score.score}`);
    return {
      sandboxOtpStatus: sandboxOtp.response.status,
      lenderOtpStatus: lenderOtp.response.status,
      score: score.score,
      paymentHistory: score.payment_history,
    };
  } finally {
    server.close();
    await close();
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
