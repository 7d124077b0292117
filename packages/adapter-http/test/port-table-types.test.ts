/**
 * The port table (core's registry/store-ports.ts) is typed so that Inversify's own
 * `ServiceIdentifier<T>` checks what is bound to a token: a wrong class, a
 * swapped token in a dependency list or a class table missing a port does not
 * compile. Each `@ts-expect-error` below fails the build (`tsc -b`) the day
 * the table stops rejecting that mistake; the runtime checks make sure the
 * well-typed bindings resolve.
 */
import 'reflect-metadata';
import { expect } from 'chai';
import { Container } from 'inversify';
import { STORE_PORTS, STORE_PORT_KEYS, type AccountRepository, type StorePortClasses, type UserRepository } from '@debtkit/core';
import {
  MEMORY_SESSION,
  MEMORY_STORE_CLASSES,
  MemoryAccountRepository,
  MemoryDatabase,
  MemoryUserRepository,
  memoryStoreModule,
} from '@debtkit/adapter-memory';

describe('port table types', () => {
  it('binds a class to the token of the port it implements', () => {
    const container = new Container();
    container.bind(MEMORY_SESSION).toConstantValue(new MemoryDatabase().autocommit);
    container.bind(STORE_PORTS.users).to(MemoryUserRepository);
    const users: UserRepository = container.get(STORE_PORTS.users);
    expect(users).to.be.instanceOf(MemoryUserRepository);
  });

  it('rejects a class bound to another port token', () => {
    const container = new Container();
    // @ts-expect-error a user repository is not an account repository
    container.bind(STORE_PORTS.accounts).to(MemoryUserRepository);
    // @ts-expect-error nor a constant of the wrong port
    container.bind(STORE_PORTS.users).toConstantValue(new MemoryAccountRepository(new MemoryDatabase().autocommit));
    expect(container.isBound(STORE_PORTS.accounts)).to.equal(true);
  });

  it("types a factory's parameters from its dependency list", () => {
    const container = new Container();
    container.load(memoryStoreModule());
    // Unannotated parameters: Inversify infers them from the tokens.
    container.bind(Symbol.for('probe.ok')).toResolvedValue(
      (users, accounts) => {
        const u: UserRepository = users;
        const a: AccountRepository = accounts;
        return [u, a];
      },
      [STORE_PORTS.users, STORE_PORTS.accounts],
    );
    container.bind(Symbol.for('probe.swapped')).toResolvedValue(
      (users, accounts) => {
        // @ts-expect-error the list is the other way round: the first is an account repository
        const u: UserRepository = users;
        // @ts-expect-error and the second a user repository
        const a: AccountRepository = accounts;
        return [u, a];
      },
      [STORE_PORTS.accounts, STORE_PORTS.users],
    );
    expect(container.get<unknown[]>(Symbol.for('probe.ok'))[0]).to.be.instanceOf(MemoryUserRepository);
  });

  it('rejects a get typed as another port', () => {
    const container = new Container();
    container.load(memoryStoreModule());
    // @ts-expect-error the users token gives a user repository
    const accounts: AccountRepository = container.get(STORE_PORTS.users);
    expect(accounts).to.be.instanceOf(MemoryUserRepository);
  });

  it('rejects a store class table with a port missing or a wrong class', () => {
    const { webhookDeliveries: _left, ...missing } = MEMORY_STORE_CLASSES;
    // @ts-expect-error webhookDeliveries has no class
    const incomplete: StorePortClasses = missing;
    // @ts-expect-error users is not served by the account repository
    const wrong: StorePortClasses = { ...MEMORY_STORE_CLASSES, users: MemoryAccountRepository };
    expect(Object.keys(incomplete)).to.not.include('webhookDeliveries');
    expect(wrong.users).to.equal(MemoryAccountRepository);
  });

  it('binds every store port in the table', () => {
    const container = new Container();
    container.load(memoryStoreModule());
    for (const key of STORE_PORT_KEYS) expect(container.isBound(STORE_PORTS[key]), key).to.equal(true);
    expect(STORE_PORT_KEYS).to.deep.equal([
      'clients',
      'tokens',
      'audit',
      'events',
      'webhookEndpoints',
      'webhookDeliveries',
      'users',
      'erasures',
      'accounts',
      'creditScores',
      'bureauFlows',
      'paymentPlans',
      'planPayments',
      'idempotency',
    ]);
  });
});
