/**
 * Payment plans stored before docs/decisions/payoff-and-outlook.md (no `custom_order`, `extra_payments`,
 * `start_date`) still read, as what they were; anything else malformed is
 * still a StoredDocumentError. Runs on the wire-protocol test server (or the
 * real server at MONGODB_URL), through the real driver.
 */
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import type { StorePorts } from '@debtkit/core';
import { aPaymentPlan, anId, expectSome } from '@debtkit/core/testing';
import { COLLECTIONS, StoredDocumentError, connectMongoStore } from '../src/index.js';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';

const REAL_URL = process.env['MONGODB_URL'];
const USER = anId('user', 1);

describe(`mongo payment plans stored before docs/decisions/payoff-and-outlook.md (${REAL_URL ? 'real MongoDB' : 'wire-protocol test server'})`, () => {
  let server: WireServer | undefined;
  let store: StorePorts;
  let admin: MongoClient;
  const dbName = `legacy_plans_${process.pid}`;

  before(async () => {
    if (!REAL_URL) server = await startWireServer();
    const url = REAL_URL || server!.url;
    store = await connectMongoStore(url, { dbName, serverSelectionTimeoutMS: 2000 });
    admin = new MongoClient(url, { serverSelectionTimeoutMS: 2000 });
  });
  after(async () => {
    await admin.db(dbName).dropDatabase();
    await admin.close();
    await store.close();
    await server?.stop();
  });

  const insertRaw = async (doc: Record<string, unknown> & { _id: number }): Promise<void> => {
    await admin.db(dbName).collection<{ _id: number }>(COLLECTIONS.paymentPlans).insertOne(doc);
  };

  it('reads a plan without the new fields as a plan with no custom order, no extra payments, started the day it was created', async () => {
    const { custom_order: _c, extra_payments: _x, start_date: _s, ...legacy } = aPaymentPlan(USER);
    await insertRaw({ _id: 901, ...legacy });
    const found = await expectSome(store.paymentPlans.get(USER, anId('payment_plan', 901)));
    expect(found).to.deep.equal({ ...aPaymentPlan(USER), id: 901, custom_order: null, extra_payments: [], start_date: '2024-07-01' });
  });

  it('does not paper over a document that has some new fields but not all', async () => {
    const { custom_order: _c, ...partial } = aPaymentPlan(USER);
    await insertRaw({ _id: 902, ...partial });
    let error: unknown;
    try {
      await store.paymentPlans.get(USER, anId('payment_plan', 902))();
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(StoredDocumentError);
    expect((error as StoredDocumentError).message).to.include('custom_order');
  });
});
