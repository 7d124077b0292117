/**
 * The render cache (render-cache.ts, docs/decisions/tenancy.md): a payment plan's JSON text
 * is serialised once per API version, and a large one compressed once per
 * encoding, instead of on every read.
 *
 * Over HTTP (`app.callback()`), on the memory store and the mongo store: two
 * apps on ONE store, one with the cache (the default) and one without
 * (`DEBTKIT_RENDER_CACHE_MB=0`), answer every plan read byte for byte alike,
 * in every API version and content encoding, before and after the text is
 * kept; a deleted plan is 404 at once; a payment under a plan leaves its
 * answer as it was. The cache itself: per version, a text is kept after the
 * version's transforms, never reused for another version or another revision,
 * and bounded by bytes. And DEBTKIT_RENDER_CACHE_MB is decoded at start.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import pino from 'pino';
import { ContainerModule } from 'inversify';
import { makeVersioning, mapListItems, idOf, renameField, versioning, type StorePorts } from '@debtkit/core';
import { aCreditScore, anAccount, cents, isoDate } from '@debtkit/core/testing';
import { compose, type Composition } from '../src/main/composition.js';
import { HTTP, resolve } from '../src/main/container.js';
import { loadConfig } from '../src/main/config.js';
import {
  createRenderCache,
  creditScoreRevision,
  DEFAULT_REVISIONS,
  immutableRevision,
  MIB,
  type RenderCache,
  type RenderedBytes,
} from '../src/http/render-cache.js';
import type { JsonText } from '../src/http/routes/paged-list.js';
import { KEPT_COMPRESSION_MIN_BYTES } from '../src/http/pipeline/compression.js';
import { fixedClock } from './support/http-harness.js';
import { useMongoStores } from './support/mongo-stores.js';

/** $10,000 at 20% paying $194 a month: about 118 months. Twelve such loans make a plan of ~150 KB, over the size whose compressed bytes are kept. */
const MINIMUM = 19_400;
const LOANS = 12;

interface RawAnswer {
  readonly status: number;
  readonly encoding: string | undefined;
  readonly length: string | undefined;
  /** The body as sent, decoded per its Content-Encoding. */
  readonly text: string;
}

/** A request to `server` as a client sends it; the answer's bytes decoded by hand, so the encoding sent is what is checked. */
const raw = (server: Server, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> =>
  new Promise((resolvePromise, reject) => {
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const decoded = encoding === 'gzip' ? gunzipSync(body) : encoding === 'br' ? brotliDecompressSync(body) : body;
        resolvePromise({ status: res.statusCode ?? 0, encoding, length: res.headers['content-length'], text: decoded.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });

const listen = (c: Composition): Promise<Server> =>
  new Promise((resolvePromise) => {
    const server = createServer(c.app.callback());
    server.listen(0, '127.0.0.1', () => resolvePromise(server));
  });

const close = (server: Server): Promise<void> => new Promise((r) => server.close(() => r()));

/** No rate limits: the suite sends many reads (as the HTTP harness does). */
const noRateLimits = new ContainerModule(({ rebind }) => {
  rebind(HTTP.RateLimits).toConstantValue({ close: () => Promise.resolve() });
});

const renderCacheSuite = (label: string, makeStore: () => Promise<StorePorts | undefined>, encodings: ReadonlyArray<string>): void => {
  describe(`render cache over HTTP (${label})`, function () {
    this.timeout(60_000);
    let cached: Composition;
    let plain: Composition;
    let withCache: Server;
    let without: Server;
    let auth: Record<string, string>;
    let user: number;
    let plans: number[];
    let given: StorePorts | undefined;

    const kept = (): RenderCache => resolve(cached.container, HTTP.RenderCache);
    /** Both apps' clock: a day can pass. */
    let instant = fixedClock().now().getTime();
    const clock = { now: (): Date => new Date(instant) };

    before(async () => {
      given = await makeStore();
      const logger = pino({ level: 'silent' });
      cached = await compose({ logger, clock, modules: [noRateLimits], ...(given === undefined ? {} : { store: given }) });
      plain = await compose({ config: { renderCacheBytes: 0 }, logger, clock, modules: [noRateLimits], store: cached.store });
      [withCache, without] = await Promise.all([listen(cached), listen(plain)]);
      const client = await resolve(cached.container, HTTP.ClientAccess).createClient({
        name: 'Render cache',
        environment: 'sandbox',
        apiVersion: versioning.latest,
      })();
      if (E.isLeft(client)) throw new Error(client.left.message);
      auth = { Authorization: `Bearer ${client.right.token}` };
      const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
        const res = await fetch(`http://127.0.0.1:${(withCache.address() as AddressInfo).port}${path}`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': `${path}-${Math.random()}` },
          body: JSON.stringify(body),
        });
        if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
        return (await res.json()) as Record<string, unknown>;
      };
      user = (await post('/api/users', { last_name: 'Cached' }))['id'] as number;
      for (let i = 0; i < LOANS; i++) {
        const account = anAccount(idOf('user', user), {
          type: 'loan',
          subtype: 'personal_loan',
          balance: cents(1_000_000 + i),
          apr: 20,
          minimum_payment: cents(MINIMUM),
        });
        const stored = await cached.store.accounts.create(account)();
        if (E.isLeft(stored)) throw new Error(stored.left.message);
      }
      plans = [];
      for (const strategy of ['minimum_only', 'avalanche', 'snowball']) {
        plans.push(
          (
            await post(`/api/users/${user}/payment_plans`, {
              strategy,
              monthly_payment: LOANS * MINIMUM + (strategy === 'minimum_only' ? 0 : 5_000),
            })
          )['id'] as number,
        );
      }
    });
    after(async () => {
      await Promise.all([close(withCache), close(without)]);
      await plain.close();
      await cached.close();
      await given?.close();
    });

    /** The same request to both apps: the same status, encoding and text (`label` says which). */
    const alike = async (method: string, path: string, headers: Record<string, string>): Promise<RawAnswer> => {
      const [a, b] = await Promise.all([
        raw(withCache, method, path, { ...auth, ...headers }),
        raw(without, method, path, { ...auth, ...headers }),
      ]);
      const what = `${method} ${path} ${JSON.stringify(headers)}`;
      expect(a.status, what).to.equal(b.status);
      expect(a.encoding, what).to.equal(b.encoding);
      // An error names its own request: the rest of it is alike.
      const withoutRequestId = (text: string): string => text.replace(/"request_id":"[^"]*"/, '"request_id":""');
      expect(withoutRequestId(a.text), what).to.equal(withoutRequestId(b.text));
      if (a.encoding === undefined) expect(a.length, what).to.equal(b.length);
      return a;
    };

    it('plans and plan lists are byte for byte the uncached answer, in every API version and encoding, before and after they are kept', async () => {
      const paths = [
        ...plans.slice(0, 2).map((id) => `/api/users/${user}/payment_plans/${id}`),
        `/api/users/${user}/payment_plans`,
        `/api/users/${user}/payment_plans?starting_after=${plans[0]}&limit=1`,
      ];
      for (const version of versioning.known) {
        for (const encoding of encodings) {
          for (const round of [1, 2]) {
            for (const path of paths) {
              const answer = await alike('GET', path, { 'API-Version': version, 'Accept-Encoding': encoding });
              expect(answer.status, `${path} round ${round}`).to.equal(200);
            }
          }
        }
        // HEAD: no body, and the length of the body as a GET without compression sends it.
        await alike('HEAD', paths[0]!, { 'API-Version': version, 'Accept-Encoding': 'gzip' });
      }
      // 2024-07-01 embeds the schedule: the plan that is big enough to have its compressed bytes kept.
      const single = await alike('GET', paths[0]!, { 'API-Version': '2024-07-01', 'Accept-Encoding': 'gzip' });
      expect(single.encoding).to.equal('gzip');
      expect(Buffer.byteLength(single.text)).to.be.above(KEPT_COMPRESSION_MIN_BYTES);
      // Kept: each plan's text, each page's compressed bytes (per encoding), in every version.
      expect(kept().stats().entries).to.be.at.least(versioning.known.length * 4);
    });

    it('a second read is served what the first one kept: nothing new is kept', async () => {
      const path = `/api/users/${user}/payment_plans/${plans[1]}`;
      await alike('GET', path, { 'Accept-Encoding': 'br' });
      const before = kept().stats();
      expect(before.entries).to.be.above(0);
      for (let i = 0; i < 3; i++) await alike('GET', path, { 'Accept-Encoding': 'br' });
      expect(kept().stats()).to.deep.equal(before);
    });

    it('credit scores, latest and history, are byte for byte the uncached answer in every API version, before and after they are kept; a new score is answered at once', async () => {
      const owner = idOf('user', user);
      const add = async (score: number, increase: number): Promise<number> => {
        const added = await cached.store.creditScores.add(aCreditScore(owner, { score, increase }))();
        if (E.isLeft(added)) throw new Error(added.left.message);
        return added.right.id;
      };
      const latest = `/api/users/${user}/credit_scores`;
      const history = `${latest}/history`;
      expect((await alike('GET', latest, {})).status, 'no score yet').to.equal(404);
      const first = await add(700, 0);
      const read = async (): Promise<{ latest: { id: number }; history: { credit_scores: Array<{ id: number }> } }> => {
        let answers: { latest: { id: number }; history: { credit_scores: Array<{ id: number }> } } | undefined;
        for (const version of versioning.known) {
          for (const round of [1, 2]) {
            const [one, all] = [
              await alike('GET', latest, { 'API-Version': version }),
              await alike('GET', history, { 'API-Version': version }),
            ];
            expect([one.status, all.status], `${version} round ${round}`).to.deep.equal([200, 200]);
            if (version === versioning.latest) answers = { latest: JSON.parse(one.text), history: JSON.parse(all.text) };
          }
        }
        if (answers === undefined) throw new Error('the latest version was not read');
        return answers;
      };
      const once = await read();
      expect(once.latest.id).to.equal(first);
      const entries = kept().stats().entries;
      // Read again: what was kept is served, nothing new is kept.
      await read();
      expect(kept().stats().entries).to.equal(entries);
      // A new report is a new score: answered at once, and kept beside the first.
      const second = await add(720, 20);
      const twice = await read();
      expect(twice.latest.id).to.equal(second);
      expect(twice.history.credit_scores.map((s) => s.id)).to.deep.equal([second, first]);
      expect(kept().stats().entries).to.be.above(entries);
    });

    it('a payment under a plan leaves its answer as it was; a deleted plan is 404 at once and leaves the lists', async () => {
      const [first, , last] = plans as [number, number, number];
      const planPath = `/api/users/${user}/payment_plans/${first}`;
      const before = await alike('GET', planPath, { 'Accept-Encoding': 'gzip' });
      const accountId = (JSON.parse(before.text) as { account_ids: number[] }).account_ids[0];
      const paid = await fetch(`http://127.0.0.1:${(withCache.address() as AddressInfo).port}${planPath}/payments`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': `pay-${label.replace(/[^a-z]/g, '-')}` },
        body: JSON.stringify({ account_id: accountId, amount: 5_000 }),
      });
      expect(paid.status, await paid.clone().text()).to.equal(201);
      expect((await alike('GET', planPath, { 'Accept-Encoding': 'gzip' })).text).to.equal(before.text);

      const lastPath = `/api/users/${user}/payment_plans/${last}`;
      await alike('GET', lastPath, { 'Accept-Encoding': 'gzip' });
      const deleted = await raw(withCache, 'DELETE', lastPath, { ...auth });
      expect(deleted.status).to.equal(204);
      for (const encoding of ['identity', 'gzip']) {
        expect((await alike('GET', lastPath, { 'Accept-Encoding': encoding })).status).to.equal(404);
        const list = await alike('GET', `/api/users/${user}/payment_plans`, { 'Accept-Encoding': encoding });
        expect((JSON.parse(list.text) as { payment_plans: Array<{ id: number }> }).payment_plans.map((p) => p.id)).to.not.include(last);
      }
    });

    it('an account is byte for byte the uncached answer in every API version, kept until it is written or a day passes: an update, a payment and the next day are answered at once', async () => {
      const owner = idOf('user', user);
      const created = await cached.store.accounts.create(
        anAccount(owner, { type: 'loan', subtype: 'credit_card_loan', balance: cents(500_000), apr: 24, minimum_payment: cents(10_000) }),
      )();
      if (E.isLeft(created)) throw new Error(created.left.message);
      const path = `/api/users/${user}/accounts/${created.right.id}`;
      type Shown = { effective_apr: number; balance: number; expected_payoff_date: string | null };
      /** Every version, twice, alike in both apps; the latest version's answer. */
      const read = async (): Promise<Shown> => {
        let shown: Shown | undefined;
        for (const version of versioning.known) {
          for (const round of [1, 2]) {
            const answer = await alike('GET', path, { 'API-Version': version, 'Accept-Encoding': 'gzip' });
            expect(answer.status, `${version} round ${round}`).to.equal(200);
            if (version === versioning.latest) shown = JSON.parse(answer.text) as Shown;
          }
        }
        if (shown === undefined) throw new Error('the latest version was not read');
        return shown;
      };
      const first = await read();
      const entries = kept().stats().entries;
      await read();
      expect(kept().stats().entries, 'read again: nothing new kept').to.equal(entries);

      const patched = await raw(
        withCache,
        'PATCH',
        path,
        { ...auth, 'Content-Type': 'application/json' },
        JSON.stringify({ user_apr: 12 }),
      );
      expect(patched.status, patched.text).to.equal(200);
      const updated = await read();
      expect([first.effective_apr, updated.effective_apr]).to.deep.equal([24, 12]);

      const paid = await cached.store.accounts.applyPayment(owner, created.right.id, {
        amount: cents(100_000),
        date: isoDate('2026-03-15'),
        updatedOn: isoDate('2026-03-15'),
      })();
      if (E.isLeft(paid)) throw new Error(paid.left.message);
      expect((await read()).balance).to.equal(400_000);

      const before = await read();
      instant += 86_400_000;
      try {
        const tomorrow = await read();
        expect(tomorrow.expected_payoff_date).to.not.equal(before.expected_payoff_date);
      } finally {
        instant -= 86_400_000;
      }
    });
  });
};

describe('render cache', () => {
  renderCacheSuite('memory store', () => Promise.resolve(undefined), ['identity', 'gzip', 'br', 'gzip;q=0.5, br;q=0.1']);
  describe('on mongo', () => {
    const mongo = useMongoStores('render_cache');
    // The wire-protocol test server is slow with large documents: the encodings are the memory suite's business.
    renderCacheSuite(`mongo store, ${mongo.label}`, mongo.connect, ['identity', 'gzip']);
  });

  describe('the cache itself', () => {
    const textOf = (rendered: JsonText | RenderedBytes): string => ('text' in rendered ? rendered.text : rendered.data.toString('utf8'));
    // Two versions: the older one names `months` `term` in a plan and in each plan of a list (an item-wise list change, as versions.ts asks).
    const twoVersions = makeVersioning([
      { version: '2024-07-01', changes: [] },
      {
        version: '2025-01-01',
        changes: [
          {
            version: '2025-01-01',
            description: 'term → months',
            transforms: {
              payment_plan: renameField('months', 'term'),
              payment_plan_list: mapListItems('payment_plans', renameField('months', 'term')),
            },
          },
        ],
      },
    ]);
    let renders = 0;
    const counting = {
      render: (kind: Parameters<typeof twoVersions.render>[0], body: unknown, version: string) => (
        renders++,
        twoVersions.render(kind, body, version)
      ),
    };
    const plan = (id: number, createdAt = '2026-03-15T12:00:00.000Z', months = 10) => ({
      id,
      months,
      created_at: createdAt,
      schedule: [{ month: 1, payments: [{ account_id: 1, payment: 100 }] }],
    });
    const uncached = (kind: 'payment_plan' | 'payment_plan_list', body: unknown, version: string): string =>
      JSON.stringify(twoVersions.render(kind, body, version));

    it('keeps each version its own text, after the transforms, and renders a kept one no more', () => {
      const cache = createRenderCache({ maxBytes: MIB, versioning: counting });
      for (const version of twoVersions.known) {
        renders = 0;
        const first = cache.render('payment_plan', plan(1), version);
        expect(textOf(first)).to.equal(uncached('payment_plan', plan(1), version));
        expect(renders).to.equal(1);
        const again = cache.render('payment_plan', plan(1), version);
        expect(textOf(again)).to.equal(textOf(first));
        expect(renders, 'a kept text is not rendered again').to.equal(1);
        // Kept as UTF-8 bytes and sent as they are: the same Buffer each time, encoded once.
        expect('data' in again && 'data' in first && again.data === first.data, 'the kept bytes themselves').to.equal(true);
      }
      expect(textOf(cache.render('payment_plan', plan(1), '2024-07-01'))).to.include('"term":10');
      expect(textOf(cache.render('payment_plan', plan(1), '2025-01-01'))).to.include('"months":10');
    });

    it('a list is put together from kept items, in each version, as the uncached render of the page', () => {
      const cache = createRenderCache({ maxBytes: MIB, versioning: twoVersions });
      for (const version of twoVersions.known) {
        const page = { payment_plans: [plan(1), plan(2), plan(3)], has_more: false };
        const text = cache.render('payment_plan_list', page, version);
        expect(textOf(text)).to.equal(uncached('payment_plan_list', page, version));
        expect(textOf(cache.render('payment_plan_list', page, version))).to.equal(textOf(text));
        // The size bound still ends the page early, from the kept lengths.
        const one = Buffer.byteLength(JSON.stringify(twoVersions.render('payment_plan', plan(1), version)));
        const early = cache.render('payment_plan_list', page, version, one + 40);
        expect(JSON.parse(textOf(early))).to.deep.equal({
          payment_plans: [twoVersions.render('payment_plan', plan(1), version)],
          has_more: true,
        });
      }
    });

    it('never serves a kept text for another revision: a changed body is rendered anew', () => {
      const cache = createRenderCache({ maxBytes: MIB, versioning: twoVersions });
      const v = twoVersions.latest;
      expect(textOf(cache.render('payment_plan', plan(1, '2026-03-15T12:00:00.000Z', 10), v))).to.include('"months":10');
      expect(textOf(cache.render('payment_plan', plan(1, '2026-03-16T12:00:00.000Z', 11), v))).to.include('"months":11');
      const updated = { ...plan(1, '2026-03-16T12:00:00.000Z', 12), updated_at: '2026-03-17T00:00:00.000Z' };
      expect(textOf(cache.render('payment_plan', updated, v))).to.equal(JSON.stringify(updated));
      expect(immutableRevision({ id: 1 })).to.equal(undefined);
      expect(immutableRevision([1])).to.equal(undefined);
    });

    it('compressed bytes are made once per key and reused only for the same text', async () => {
      const cache = createRenderCache({ maxBytes: MIB, versioning: twoVersions });
      let made = 0;
      const compress = (data: Buffer) => (made++, Promise.resolve(Buffer.from(`z:${data.toString()}`)));
      const rendered = { data: Buffer.from('a'.repeat(100)), key: 'k' };
      const [a, b] = await Promise.all([cache.encoded(rendered, 'gzip', compress), cache.encoded(rendered, 'gzip', compress)]);
      expect(made, 'concurrent requests share one compression').to.equal(1);
      expect(a.equals(b)).to.equal(true);
      await cache.encoded(rendered, 'gzip', compress);
      expect(made).to.equal(1);
      const other = await cache.encoded({ ...rendered, data: Buffer.from('b'.repeat(100)) }, 'gzip', compress);
      expect(made).to.equal(2);
      expect(other.toString()).to.equal(`z:${'b'.repeat(100)}`);
      await cache.encoded(rendered, 'br', compress);
      expect(made).to.equal(3);
    });

    it('keeps a credit score by its id and date (a score is never rewritten), and its history item by item', () => {
      expect(DEFAULT_REVISIONS.credit_score).to.equal(creditScoreRevision);
      expect(DEFAULT_REVISIONS.credit_score_history).to.equal(creditScoreRevision);
      expect(creditScoreRevision({ id: 7, date: '2026-11-28', score: 700 })).to.equal('7@2026-11-28');
      for (const body of [undefined, null, [], { id: '7', date: '2026-11-28' }, { id: 7 }, { date: '2026-11-28' }]) {
        expect(creditScoreRevision(body), JSON.stringify(body)).to.equal(undefined);
      }
    });

    it('is bounded by bytes, and keeps nothing at 0', () => {
      const small = createRenderCache({ maxBytes: 2_000, versioning: twoVersions });
      for (let id = 1; id <= 50; id++) small.render('payment_plan', plan(id), twoVersions.latest);
      expect(small.stats().bytes).to.be.at.most(2_000);
      expect(small.stats().entries).to.be.within(1, 49);
      const none = createRenderCache({ maxBytes: 0, versioning: twoVersions });
      const text = none.render('payment_plan', plan(1), twoVersions.latest);
      expect(textOf(text)).to.equal(JSON.stringify(plan(1)));
      expect('key' in text).to.equal(false);
      expect(none.stats()).to.deep.equal({ entries: 0, bytes: 0 });
    });

    it('DEBTKIT_RENDER_CACHE_MB: 64 MiB by default, 0 keeps none, a bad value names the variable', () => {
      const bytesOf = (env: Record<string, string>) => {
        const config = loadConfig(env);
        return E.isRight(config) ? config.right.renderCacheBytes : config.left;
      };
      expect(bytesOf({})).to.equal(64 * MIB);
      expect(bytesOf({ DEBTKIT_RENDER_CACHE_MB: '0' })).to.equal(0);
      expect(bytesOf({ DEBTKIT_RENDER_CACHE_MB: '256' })).to.equal(256 * MIB);
      for (const bad of ['-1', 'lots', '1.5', '16385']) {
        expect(bytesOf({ DEBTKIT_RENDER_CACHE_MB: bad }))
          .to.be.a('string')
          .and.match(/^DEBTKIT_RENDER_CACHE_MB must be a whole number of MiB/);
      }
    });
  });
});
