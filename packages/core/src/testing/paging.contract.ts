/**
 * The paging contract every growing list shares (docs/decisions/api-conventions.md): ascending by id,
 * items with id > `startingAfter`, at most `limit`, and `hasMore` exact at the
 * boundaries (exactly `limit` items left → `false`).
 */
import { expect } from 'chai';
import type { Id } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';
import type { StorePorts } from '../shared/unit-of-work.js';
import { idsOf } from './contract-harness.js';

export interface PagedCollection {
  /** Add one item owned by the owner under test; its id. */
  readonly create: (store: StorePorts) => Promise<Id>;
  /** Add one item of another owner (it must never show up in the list); absent for unowned lists. */
  readonly createOther?: (store: StorePorts) => Promise<Id>;
  /** The owner's list. */
  readonly list: (store: StorePorts, page: PageRequest) => Promise<Page<{ readonly id: Id }>>;
}

/** `it` blocks for the paging rules; call inside a `describe` that set up `store`. */
export const itPagesAscendingById = (store: () => StorePorts, collection: PagedCollection): void => {
  const createMine = async (n: number): Promise<Id[]> => {
    const ids: Id[] = [];
    for (let i = 0; i < n; i++) ids.push(await collection.create(store()));
    return ids;
  };
  const page = async (req: PageRequest) => {
    const p = await collection.list(store(), req);
    return { ids: idsOf(p.items), hasMore: p.hasMore };
  };
  const at = (ids: ReadonlyArray<Id>, i: number): Id => {
    const id = ids[i];
    if (id === undefined) throw new Error(`no id #${i}`);
    return id;
  };

  it('pages: an empty list has no items and no more', async () => {
    expect(await page({ limit: 20 })).to.deep.equal({ ids: [], hasMore: false });
  });

  it('pages: ascending by id, `limit` items, `hasMore` while items remain', async () => {
    const ids = await createMine(5);
    expect(await page({ limit: 2 })).to.deep.equal({ ids: ids.slice(0, 2), hasMore: true });
    expect(await page({ limit: 2, startingAfter: at(ids, 1) })).to.deep.equal({ ids: ids.slice(2, 4), hasMore: true });
    expect(await page({ limit: 2, startingAfter: at(ids, 3) })).to.deep.equal({ ids: ids.slice(4), hasMore: false });
  });

  it('pages: exactly `limit` items left → hasMore false', async () => {
    const ids = await createMine(5);
    expect(await page({ limit: 5 })).to.deep.equal({ ids, hasMore: false });
    expect(await page({ limit: 3, startingAfter: at(ids, 1) })).to.deep.equal({ ids: ids.slice(2), hasMore: false });
    expect(await page({ limit: 4 })).to.deep.equal({ ids: ids.slice(0, 4), hasMore: true });
    expect(await page({ limit: 100 })).to.deep.equal({ ids, hasMore: false });
  });

  it('pages: after the last id → empty, hasMore false', async () => {
    const ids = await createMine(3);
    expect(await page({ limit: 1, startingAfter: at(ids, 2) })).to.deep.equal({ ids: [], hasMore: false });
  });

  const createOther = collection.createOther;
  if (createOther === undefined) return;
  it("pages: only the owner's items; `startingAfter` may name an id that is not in the list", async () => {
    const s = store();
    const a0 = await collection.create(s);
    const o1 = await createOther(s);
    const a2 = await collection.create(s);
    const o3 = await createOther(s);
    const a4 = await collection.create(s);
    expect(await page({ limit: 10 })).to.deep.equal({ ids: [a0, a2, a4], hasMore: false });
    expect(await page({ limit: 1, startingAfter: o1 })).to.deep.equal({ ids: [a2], hasMore: true });
    expect(await page({ limit: 1, startingAfter: o3 })).to.deep.equal({ ids: [a4], hasMore: false });
    // The other owner's items remain after the last of the owner's: they must not make `hasMore` true.
    await createOther(s);
    expect(await page({ limit: 3 })).to.deep.equal({ ids: [a0, a2, a4], hasMore: false });
  });
};
