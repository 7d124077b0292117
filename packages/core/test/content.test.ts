import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { Article, Category, LearningModule, type ArticleSummary } from '../src/content/content.js';
import { LEARNING_MODULES } from '../src/content/learning-modules.js';
import { ARTICLES } from '../src/content/articles.js';
import { findArticle, listArticles, modulesByCategory } from '../src/content/catalog.js';
import { ArticleId } from '../src/shared/primitives.js';
import type { Page } from '../src/shared/paging.js';

const CATEGORIES: ReadonlyArray<Category> = Object.keys(Category.keys).filter(Category.is);
const ALLOWED_TAGS = new Set(['h2', 'h3', 'p', 'ul', 'ol', 'li', 'strong', 'em']);
const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

const articleId = (n: number): ArticleId => {
  const decoded = ArticleId.decode(n);
  if (E.isLeft(decoded)) throw new Error(`not an id: ${n}`);
  return decoded.right;
};

/**
 * Problems with an HTML fragment: tags outside the allowed set, attributes,
 * unbalanced or mis-nested tags, a stray `<`/`>` or a bare `&`. Empty when well-formed.
 */
const htmlProblems = (html: string): string[] => {
  const problems: string[] = [];
  const open: string[] = [];
  const tag = /<(\/?)([a-zA-Z0-9]+)([^>]*)>/g;
  for (const m of html.matchAll(tag)) {
    const [, closing, name = '', rest = ''] = m;
    if (!ALLOWED_TAGS.has(name)) problems.push(`tag <${name}> is not allowed`);
    if (rest.trim() !== '') problems.push(`tag <${name}> has attributes "${rest.trim()}"`);
    if (closing === '') open.push(name);
    else if (open.pop() !== name) problems.push(`</${name}> closes the wrong element`);
  }
  if (open.length > 0) problems.push(`unclosed: ${open.join(', ')}`);
  const text = html.replace(tag, '');
  if (/[<>]/.test(text)) problems.push('stray < or > outside a tag');
  if (/&(?![a-z]+;|#\d+;)/.test(text)) problems.push('bare & (write &amp;)');
  return problems;
};

const wordCount = (html: string): number =>
  html
    .replace(/<[^>]*>/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '').length;

const ids = (page: Page<ArticleSummary>): number[] => page.items.map((a) => a.id);

describe('content: htmlProblems (the checker the content tests rely on)', () => {
  it('accepts a well-formed fragment and names each kind of problem', () => {
    expect(htmlProblems('<h2>T</h2><p>A <strong>b</strong> c.</p><ul><li>x</li></ul>')).to.deep.equal([]);
    expect(htmlProblems('<p>a</p><div>b</div>')).to.have.length.greaterThan(0);
    expect(htmlProblems('<p class="x">a</p>')).to.have.length.greaterThan(0);
    expect(htmlProblems('<p><strong>a</p></strong>')).to.have.length.greaterThan(0);
    expect(htmlProblems('<ul><li>a</li>')).to.deep.equal(['unclosed: ul']);
    expect(htmlProblems('<p>1 < 2</p>')).to.deep.equal(['stray < or > outside a tag']);
    expect(htmlProblems('<p>Q&A</p>')).to.deep.equal(['bare & (write &amp;)']);
  });
});

describe('content: learning modules', () => {
  it('every module decodes with the LearningModule codec', () => {
    for (const m of LEARNING_MODULES) expect(E.isRight(LearningModule.decode(m)), m.title).to.equal(true);
  });

  it('has at least two modules in every category', () => {
    for (const c of CATEGORIES) {
      expect(
        LEARNING_MODULES.filter((m) => m.category === c),
        c,
      ).to.have.length.of.at.least(2);
    }
    expect(LEARNING_MODULES.length).to.be.at.least(16);
  });

  it('titles are unique snake_case identifiers', () => {
    const titles = LEARNING_MODULES.map((m) => m.title);
    expect(new Set(titles).size).to.equal(titles.length);
    for (const title of titles) expect(title).to.match(SNAKE_CASE);
  });

  it('content is well-formed HTML using only the allowed tags, starting with an <h2>', () => {
    for (const m of LEARNING_MODULES) {
      expect(htmlProblems(m.content), m.title).to.deep.equal([]);
      expect(m.content.startsWith('<h2>'), m.title).to.equal(true);
      expect(m.content, m.title).to.match(/<(ul|ol)>/);
      expect(m.content.match(/<p>/g) ?? [], m.title).to.have.length.of.at.least(2);
    }
  });

  it('content is real text: 250–450 words, no placeholders', () => {
    for (const m of LEARNING_MODULES) {
      expect(wordCount(m.content), m.title).to.be.within(250, 450);
      expect(m.content, m.title).not.to.match(/lorem|ipsum|TODO|TBD|placeholder|\$\{/i);
    }
  });

  it('modules are frozen, so one store cannot change what another serves', () => {
    expect(Object.isFrozen(LEARNING_MODULES)).to.equal(true);
    for (const m of LEARNING_MODULES) expect(Object.isFrozen(m), m.title).to.equal(true);
  });
});

describe('content: articles', () => {
  it('every article decodes with the Article codec', () => {
    expect(ARTICLES.length).to.be.at.least(8);
    for (const a of ARTICLES) expect(E.isRight(Article.decode(a)), a.title).to.equal(true);
  });

  it('ids are 1…N, unique and ascending', () => {
    expect(ARTICLES.map((a) => a.id)).to.deep.equal(ARTICLES.map((_, i) => i + 1));
  });

  it('spread across several categories', () => {
    expect(new Set(ARTICLES.map((a) => a.category)).size).to.be.at.least(4);
  });

  it('titles are unique and human, summaries are one or two sentences', () => {
    expect(new Set(ARTICLES.map((a) => a.title)).size).to.equal(ARTICLES.length);
    for (const a of ARTICLES) {
      expect(a.title, a.title).to.match(/^[A-Z].* .*[^.]$/);
      const sentences = a.summary.split(/[.?!](\s|$)/).filter((s) => s.trim() !== '');
      expect(sentences.length, a.title).to.be.within(1, 2);
      expect(a.summary, a.title).not.to.match(/</);
    }
  });

  it('published between 2024-01-01 and 2026-11-01', () => {
    for (const a of ARTICLES) {
      expect(a.published_at >= '2024-01-01' && a.published_at <= '2026-11-01', `${a.id} ${a.published_at}`).to.equal(true);
    }
  });

  it('content is well-formed HTML of 200–400 words, no placeholders', () => {
    for (const a of ARTICLES) {
      expect(htmlProblems(a.content), a.title).to.deep.equal([]);
      expect(a.content.startsWith('<h2>'), a.title).to.equal(true);
      expect(wordCount(a.content), a.title).to.be.within(200, 400);
      expect(a.content, a.title).not.to.match(/lorem|ipsum|TODO|TBD|placeholder|\$\{/i);
    }
  });
});

describe('content: catalog', () => {
  describe('modulesByCategory', () => {
    it('without a category: every module, in the same order on every call', () => {
      const all = modulesByCategory();
      expect(all.map((m) => m.title)).to.deep.equal(LEARNING_MODULES.map((m) => m.title));
      expect(modulesByCategory().map((m) => m.title)).to.deep.equal(all.map((m) => m.title));
    });

    it("with a category: exactly that category's modules, in catalog order", () => {
      for (const c of CATEGORIES) {
        const expected = LEARNING_MODULES.filter((m) => m.category === c).map((m) => m.title);
        expect(
          modulesByCategory(c).map((m) => m.title),
          c,
        ).to.deep.equal(expected);
      }
    });

    it('the categories partition the whole list', () => {
      const total = CATEGORIES.reduce((n, c) => n + modulesByCategory(c).length, 0);
      expect(total).to.equal(LEARNING_MODULES.length);
    });
  });

  describe('listArticles', () => {
    const all = ARTICLES.map((a) => a.id);

    it('summaries carry id, title, category and summary only', () => {
      const first = listArticles({ limit: 1 }).items[0];
      expect(first).to.deep.equal({
        id: 1,
        title: ARTICLES[0]?.title,
        category: ARTICLES[0]?.category,
        summary: ARTICLES[0]?.summary,
      });
      for (const s of listArticles({ limit: 100 }).items) {
        expect(s).to.have.all.keys('id', 'title', 'category', 'summary');
      }
    });

    it('pages ascending by id with `limit` items and `hasMore` while items remain', () => {
      expect(listArticles({ limit: 3 })).to.deep.include({ hasMore: true });
      expect(ids(listArticles({ limit: 3 }))).to.deep.equal(all.slice(0, 3));
      const second = listArticles({ limit: 3, startingAfter: articleId(3) });
      expect({ ids: ids(second), hasMore: second.hasMore }).to.deep.equal({ ids: all.slice(3, 6), hasMore: true });
    });

    it('exactly `limit` items left → hasMore false; one more → true', () => {
      const n = all.length;
      expect(listArticles({ limit: n }).hasMore).to.equal(false);
      expect(ids(listArticles({ limit: n }))).to.deep.equal(all);
      expect(listArticles({ limit: n - 1 }).hasMore).to.equal(true);
      const tail = listArticles({ limit: 2, startingAfter: articleId(n - 2) });
      expect({ ids: ids(tail), hasMore: tail.hasMore }).to.deep.equal({ ids: all.slice(n - 2), hasMore: false });
      expect(listArticles({ limit: 1000 }).hasMore).to.equal(false);
    });

    it('after the last id → empty, hasMore false', () => {
      expect(listArticles({ limit: 5, startingAfter: articleId(all.length) })).to.deep.equal({ items: [], hasMore: false });
      expect(listArticles({ limit: 5, startingAfter: articleId(10_000) })).to.deep.equal({ items: [], hasMore: false });
    });

    it('walking every page visits each article once, in order', () => {
      const seen: number[] = [];
      let page = listArticles({ limit: 3 });
      seen.push(...ids(page));
      while (page.hasMore) {
        const last = seen[seen.length - 1];
        if (last === undefined) throw new Error('hasMore on an empty page');
        page = listArticles({ limit: 3, startingAfter: articleId(last) });
        seen.push(...ids(page));
      }
      expect(seen).to.deep.equal(all);
    });

    it('filters by category, paging within the category; startingAfter may be an id of another category', () => {
      const fb = ARTICLES.filter((a) => a.category === 'financial_basics').map((a) => a.id);
      expect(fb.length).to.be.at.least(3);
      const whole = listArticles({ limit: 100 }, 'financial_basics');
      expect({ ids: ids(whole), hasMore: whole.hasMore }).to.deep.equal({ ids: fb, hasMore: false });
      for (const s of whole.items) expect(s.category).to.equal('financial_basics');

      const first = listArticles({ limit: 1 }, 'financial_basics');
      expect({ ids: ids(first), hasMore: first.hasMore }).to.deep.equal({ ids: fb.slice(0, 1), hasMore: true });

      // `startingAfter` names an article of another category lying between two financial_basics ids.
      const [, f1, f2] = fb;
      const gap = ARTICLES.find((a) => f1 !== undefined && f2 !== undefined && a.id > f1 && a.id < f2);
      if (gap === undefined) throw new Error('the data needs another category between financial_basics articles');
      expect(gap.category).not.to.equal('financial_basics');
      const afterGap = listArticles({ limit: 100, startingAfter: gap.id }, 'financial_basics');
      expect({ ids: ids(afterGap), hasMore: afterGap.hasMore }).to.deep.equal({ ids: fb.slice(2), hasMore: false });

      // The last item of a category: no more, even though articles of other categories follow.
      const lastFb = fb[fb.length - 1];
      if (lastFb === undefined) throw new Error('unreachable');
      const end = listArticles({ limit: 1, startingAfter: articleId(fb[fb.length - 2] ?? 1) }, 'financial_basics');
      expect({ ids: ids(end), hasMore: end.hasMore }).to.deep.equal({ ids: [lastFb], hasMore: false });
    });

    it('a category with one article: that article, no more', () => {
      const counts = new Map<Category, number[]>();
      for (const a of ARTICLES) counts.set(a.category, [...(counts.get(a.category) ?? []), a.id]);
      const single = [...counts].find(([, list]) => list.length === 1);
      if (single === undefined) throw new Error('expected a category with exactly one article');
      const [category, list] = single;
      expect(listArticles({ limit: 20 }, category)).to.deep.include({ hasMore: false });
      expect(ids(listArticles({ limit: 20 }, category))).to.deep.equal(list);
    });

    it('limit 0 returns nothing but still reports what remains', () => {
      expect(listArticles({ limit: 0 })).to.deep.equal({ items: [], hasMore: true });
    });
  });

  describe('findArticle', () => {
    it('finds every article by id, with content and published_at', () => {
      for (const a of ARTICLES) {
        const found = findArticle(a.id);
        expect(O.isSome(found) ? found.value : undefined).to.equal(a);
      }
    });

    it('a missing id → None', () => {
      expect(O.isNone(findArticle(articleId(ARTICLES.length + 1)))).to.equal(true);
      expect(O.isNone(findArticle(articleId(987_654)))).to.equal(true);
    });
  });
});
