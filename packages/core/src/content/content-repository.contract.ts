/**
 * Contract of `ContentRepository`: the content ships with core (content/catalog.ts,
 * `shippedContent`), so it is not a store port; an embedder that serves its own
 * content runs this against it: exactly what the catalog's accessors return.
 */
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import { Article, ArticleSummary, Category, LearningModule } from './content.js';
import { findArticle, listArticles, modulesByCategory } from './catalog.js';
import type { ArticleId } from '../shared/primitives.js';
import { expectAscending, expectNone, expectRight, expectSome, idsOf } from '../testing/contract-harness.js';
import type { ContentRepository } from './content-repository.js';
import { anId } from '../testing/record-mothers.js';

const CATEGORIES = Object.keys(Category.keys) as Category[];

export function contentRepositoryContract(name: string, content: () => ContentRepository): void {
  describe(`${name} ContentRepository contract`, () => {
    /** Every article summary, read page by page from the repository. */
    const allSummaries = async (category?: Category): Promise<ArticleSummary[]> => {
      const out: ArticleSummary[] = [];
      for (;;) {
        const last = out[out.length - 1];
        const page = await expectRight(
          content().listArticles(last === undefined ? { limit: 2 } : { limit: 2, startingAfter: last.id }, category),
        );
        out.push(...page.items);
        if (!page.hasMore) return out;
        expect(page.items, 'a page with hasMore has items').to.have.length(2);
      }
    };

    describe('learning modules', () => {
      it('without a category: every shipped module, each a valid LearningModule', async () => {
        const modules = await expectRight(content().listModules());
        expect(modules).to.deep.equal(modulesByCategory());
        expect(modules.length).to.be.greaterThan(0);
        for (const m of modules) expect(LearningModule.is(m), m.title).to.equal(true);
      });

      it("by category: exactly that category's shipped modules, at least two each (docs/api/reference.md)", async () => {
        let total = 0;
        for (const category of CATEGORIES) {
          const modules = await expectRight(content().listModules(category));
          expect(modules, category).to.deep.equal(modulesByCategory(category));
          expect(modules.length, category).to.be.at.least(2);
          for (const m of modules) expect(m.category).to.equal(category);
          total += modules.length;
        }
        expect(total).to.equal((await expectRight(content().listModules())).length);
      });

      it('a returned module is a copy: changing it does not change what is served', async () => {
        const [first] = await expectRight(content().listModules('career'));
        if (first === undefined) expect.fail('no career module');
        try {
          first.title = 'changed';
        } catch {
          // A frozen object is as good as a copy: it cannot be changed at all.
        }
        expect(await expectRight(content().listModules('career'))).to.deep.equal(modulesByCategory('career'));
      });
    });

    describe('articles', () => {
      it('lists every shipped article as a summary (id, title, category, summary), ascending by id', async () => {
        const summaries = await allSummaries();
        expect(summaries.length).to.be.greaterThan(0);
        expectAscending(idsOf(summaries));
        for (const s of summaries) {
          expect(ArticleSummary.is(s)).to.equal(true);
          expect(Object.keys(s).sort()).to.deep.equal(['category', 'id', 'summary', 'title']);
        }
        const everything = await expectRight(content().listArticles({ limit: 100 }));
        expect(everything).to.deep.equal(listArticles({ limit: 100 }));
        expect(everything.items).to.deep.equal(summaries);
      });

      it('pages: `hasMore` exact at the boundaries', async () => {
        const count = (await allSummaries()).length;
        expect(await expectRight(content().listArticles({ limit: count }))).to.have.property('hasMore', false);
        if (count > 1) {
          const page = await expectRight(content().listArticles({ limit: count - 1 }));
          expect(page.items).to.have.length(count - 1);
          expect(page.hasMore).to.equal(true);
        }
        const summaries = await allSummaries();
        const last = summaries[summaries.length - 1];
        if (last === undefined) expect.fail('no articles');
        expect(await expectRight(content().listArticles({ limit: 5, startingAfter: last.id }))).to.deep.equal({
          items: [],
          hasMore: false,
        });
      });

      it('pages the same way as the catalog for every page size', async () => {
        const count = (await allSummaries()).length;
        for (let limit = 1; limit <= count + 1; limit++) {
          const first = await expectRight(content().listArticles({ limit }));
          expect(first, `limit ${limit}`).to.deep.equal(listArticles({ limit }));
          const after = first.items[first.items.length - 1];
          if (after !== undefined) {
            const next = await expectRight(content().listArticles({ limit, startingAfter: after.id }));
            expect(next, `limit ${limit} after ${after.id}`).to.deep.equal(listArticles({ limit, startingAfter: after.id }));
          }
        }
      });

      it('filters by category: only that category, as the catalog does', async () => {
        const all = await allSummaries();
        let seen = 0;
        for (const category of CATEGORIES) {
          const summaries = await allSummaries(category);
          for (const s of summaries) expect(s.category).to.equal(category);
          expect(summaries, category).to.deep.equal(all.filter((s) => s.category === category));
          expect(await expectRight(content().listArticles({ limit: 100 }, category))).to.deep.equal(listArticles({ limit: 100 }, category));
          seen += summaries.length;
        }
        expect(seen).to.equal(all.length);
      });

      it('getArticle: each listed article, with content and published_at, as the catalog has it', async () => {
        for (const summary of await allSummaries()) {
          const article = await expectSome(content().getArticle(summary.id));
          expect(Article.is(article), `article ${summary.id}`).to.equal(true);
          expect({ id: article.id, title: article.title, category: article.category, summary: article.summary }).to.deep.equal(summary);
          expect(article.content.length).to.be.greaterThan(0);
          const shipped = findArticle(summary.id);
          expect(O.isSome(shipped) ? shipped.value : undefined).to.deep.equal(article);
        }
      });

      it('getArticle of an unknown id → none', async () => {
        const ids = idsOf(await allSummaries());
        const unknown: ArticleId = anId('article', Math.max(0, ...ids) + 1);
        await expectNone(content().getArticle(unknown));
        await expectNone(content().getArticle(anId('article', Number.MAX_SAFE_INTEGER)));
      });
    });
  });
}
