/**
 * The account views' memo (account-views.ts): a view is built once per key, frozen, and its key is
 * its revision for the render cache; another key builds anew; bounded by entries.
 * Over HTTP, on both stores, render-cache.test.ts shows an update, a payment and the next day
 * answered at once.
 */
import { expect } from 'chai';
import type { Account } from '@debtkit/core';
import { keptAccountViews } from '../src/http/account-views.js';
import { keptRevision } from '../src/http/kept-revisions.js';

const aView = (id: number, balance: number): Account => ({ id, balance }) as unknown as Account;

describe('account views kept by their key', () => {
  it('builds a view once per key, frozen, with its key as its revision', () => {
    const views = keptAccountViews();
    let built = 0;
    const build = (): Account => {
      built += 1;
      return aView(1, 500);
    };
    const first = views('1@3@2026-11-28', build);
    expect(views('1@3@2026-11-28', build)).to.equal(first);
    expect(built).to.equal(1);
    expect(Object.isFrozen(first)).to.equal(true);
    expect(keptRevision(first)).to.equal('1@3@2026-11-28');
    expect(keptRevision(aView(1, 500)), 'a view it did not keep').to.equal(undefined);
    expect(keptRevision(null)).to.equal(undefined);
  });

  it('builds anew for another version or another day', () => {
    const views = keptAccountViews();
    const first = views('1@3@2026-11-28', () => aView(1, 500));
    const written = views('1@4@2026-11-28', () => aView(1, 400));
    const tomorrow = views('1@4@2026-11-29', () => aView(1, 400));
    expect(written).to.not.equal(first);
    expect(written.balance).to.equal(400);
    expect(tomorrow).to.not.equal(written);
    expect([keptRevision(written), keptRevision(tomorrow)]).to.deep.equal(['1@4@2026-11-28', '1@4@2026-11-29']);
  });

  it('is bounded by entries, the least recently used out first', () => {
    const views = keptAccountViews(2);
    const a = views('a', () => aView(1, 1));
    views('b', () => aView(2, 2));
    expect(views('a', () => aView(1, 9))).to.equal(a);
    views('c', () => aView(3, 3));
    // `b` was the least recently used: built again.
    expect(views('b', () => aView(2, 7)).balance).to.equal(7);
    expect(views('c', () => aView(3, 8)).balance).to.equal(3);
  });
});
