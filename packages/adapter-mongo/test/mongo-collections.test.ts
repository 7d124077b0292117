/**
 * Each store port's collection is checked against core's port table
 * (`PORT_COLLECTIONS`): a port without a collection does not compile. The
 * `@ts-expect-error` below fails the build the day it stops being checked.
 */
import { expect } from 'chai';
import { STORE_PORT_KEYS } from '@debtkit/core';
import { COLLECTIONS, INDEXES, PORT_COLLECTIONS, type PortCollections } from '../src/mongo-collections.js';

describe('mongo collections of the store ports', () => {
  it('name one stored collection, with its index list, for every store port', () => {
    expect(Object.keys(PORT_COLLECTIONS)).to.have.members([...STORE_PORT_KEYS]);
    for (const name of Object.values(PORT_COLLECTIONS)) {
      expect(Object.values(COLLECTIONS)).to.include(name);
      expect(INDEXES[name], name).to.be.an('array');
    }
  });

  it('rejects a table missing a port, or naming a collection that is not stored', () => {
    // @ts-expect-error `auditlog` is not a collection of the store
    const misnamed: PortCollections = { ...PORT_COLLECTIONS, audit: 'auditlog' };
    expect(misnamed.audit).to.equal('auditlog');
    const { audit: _audit, ...withoutAudit } = PORT_COLLECTIONS;
    // @ts-expect-error `audit` has no collection
    const table: PortCollections = withoutAudit;
    expect(Object.keys(table)).not.to.include('audit');
  });
});
