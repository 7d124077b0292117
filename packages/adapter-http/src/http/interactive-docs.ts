/**
 * `GET /docs` (docs/sandbox-over-time.md): an interactive reference of the API, one per
 * served version's OpenAPI document (`/openapi.json?version=V`), where a
 * developer pastes a sandbox token and tries a request. Swagger UI, from the
 * `swagger-ui-dist` package, served by debtkit itself: no CDN, no outside
 * fonts, nothing fetched from anywhere but this server (docs/interactive-docs.md
 * says why this package).
 *
 * The page is fixed HTML with no inline script or style: its strict
 * Content-Security-Policy allows scripts, styles, fonts and requests from this
 * server only. Its configuration (the versions) is a JSON data block, which is
 * not run. The token stays in the page's memory (Swagger UI's
 * `persistAuthorization: false`): nothing is written to localStorage or
 * sessionStorage, so closing or reloading the tab forgets it.
 *
 * Every answer is a fixed body (`staticContent`): compressed once per coding,
 * with an ETag. The page revalidates (`no-cache`); an asset asked for under
 * its fingerprint (`?v=` its hash, as the page links it) is cached for a
 * year (`immutable`), under any other URL it revalidates.
 *
 * Its own router, before the API's: the docs are not part of the API (not in
 * the OpenAPI document) and take no token.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Router from '@koa/router';
import type { AppMiddleware, AppState } from './app-context.js';
import { staticContent, type StaticContent } from './static-json.js';

export interface InteractiveDocsOptions {
  /** The API versions whose documents are offered (core's `versioning.known`); the newest is shown first. */
  readonly versions: ReadonlyArray<string>;
}

/**
 * The page's Content-Security-Policy: everything from this server only, no
 * inline script or style, no plugins, no framing, no form posts, no `<base>`.
 * Swagger UI draws its icons as `data:` SVG images from its stylesheet.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** A fingerprinted asset is kept a year: its URL changes when it does. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TEXT = (type: string): string => `${type}; charset=utf-8`;

/** Our own script: starts Swagger UI on the chosen version's document, and switches versions keeping the token. */
const START_SCRIPT = `'use strict';
(function () {
  var config = JSON.parse(document.getElementById('debtkit-docs-config').textContent);
  var select = document.getElementById('debtkit-docs-version');
  config.versions.forEach(function (v) {
    var option = document.createElement('option');
    option.value = v.url;
    option.textContent = v.name;
    select.appendChild(option);
  });
  var ui = SwaggerUIBundle({
    url: select.value,
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    // The token lives in this page's memory only: not in localStorage, gone with the tab.
    persistAuthorization: false,
    // No configuration from the page's query string (it could point the page at another document).
    queryConfigEnabled: false,
    // No badge from an outside validator.
    validatorUrl: null,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    withCredentials: false
  });
  select.addEventListener('change', function () {
    // The same UI loads the other document: the authorization stays.
    ui.specActions.updateUrl(select.value);
    ui.specActions.download(select.value);
  });
})();
`;

const START_STYLE = `html { box-sizing: border-box; overflow-y: scroll; }
*, *:before, *:after { box-sizing: inherit; }
body { margin: 0; background: #fafafa; font-family: sans-serif; }
.debtkit-docs-bar { display: flex; align-items: center; gap: 1em; padding: 0.6em 1.5em; background: #1b1b1b; color: #fff; }
.debtkit-docs-bar h1 { font-size: 1.1em; margin: 0; font-weight: 600; }
.debtkit-docs-bar label { margin-left: auto; font-size: 0.9em; }
.debtkit-docs-bar select { margin-left: 0.5em; font-size: 0.9em; }
`;

/** The files of swagger-ui-dist that the page uses. */
const PACKAGE_ASSETS = {
  'swagger-ui-bundle.js': TEXT('text/javascript'),
  'swagger-ui.css': TEXT('text/css'),
  'favicon-32x32.png': 'image/png',
} as const;

const OWN_ASSETS = {
  'docs.js': { type: TEXT('text/javascript'), text: START_SCRIPT },
  'docs.css': { type: TEXT('text/css'), text: START_STYLE },
} as const;

type AssetName = keyof typeof PACKAGE_ASSETS | keyof typeof OWN_ASSETS;

const ASSET_NAMES = [...Object.keys(PACKAGE_ASSETS), ...Object.keys(OWN_ASSETS)] as ReadonlyArray<AssetName>;

/** Where swagger-ui-dist is installed (resolved from this module, as `import` would). */
const packageDirectory = (): string => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** `<`, `>` and `&` escaped: JSON that cannot end the `<script>` block it sits in. */
const scriptSafeJson = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/**
 * The page. Its URLs are relative (`docs/assets/…`, `openapi.json`), so the app
 * works mounted under a prefix too; the page is `/docs` (no trailing slash,
 * which would move them).
 */
const pageHtml = (versions: ReadonlyArray<{ name: string; url: string }>, assetUrl: (name: AssetName) => string): string => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>debtkit API reference</title>
<link rel="icon" type="image/png" href="${assetUrl('favicon-32x32.png')}">
<link rel="stylesheet" href="${assetUrl('swagger-ui.css')}">
<link rel="stylesheet" href="${assetUrl('docs.css')}">
</head>
<body>
<header class="debtkit-docs-bar">
<h1>debtkit API reference</h1>
<label>API version <select id="debtkit-docs-version"></select></label>
</header>
<div id="swagger-ui"></div>
<script id="debtkit-docs-config" type="application/json">${scriptSafeJson({ versions })}</script>
<script src="${assetUrl('swagger-ui-bundle.js')}"></script>
<script src="${assetUrl('docs.js')}"></script>
</body>
</html>
`;

/**
 * The docs' routes, as Koa middleware: `GET /docs` (the page) and
 * `GET /docs/assets/<file>` (what it loads). Everything else passes on.
 * swagger-ui-dist's files are read on first use and kept.
 */
export const interactiveDocs = (options: InteractiveDocsOptions): AppMiddleware => {
  const directory = packageDirectory();
  const assets = new Map<AssetName, Promise<StaticContent>>();
  for (const [name, { type, text }] of Object.entries(OWN_ASSETS))
    assets.set(name as AssetName, Promise.resolve(staticContent(Buffer.from(text, 'utf8'), type)));
  const assetOf = (name: AssetName): Promise<StaticContent> => {
    let asset = assets.get(name);
    if (asset === undefined) {
      const type = PACKAGE_ASSETS[name as keyof typeof PACKAGE_ASSETS];
      asset = readFile(join(directory, name)).then((body) => staticContent(body, type));
      // A failed read is not kept: the next request tries again.
      asset.catch(() => assets.delete(name));
      assets.set(name, asset);
    }
    return asset;
  };

  // The page names each asset by its fingerprint, which needs the files' contents: worked out on the first request.
  let page: Promise<StaticContent> | undefined;
  const pageOf = (): Promise<StaticContent> => {
    if (page !== undefined) return page;
    const versions = [...options.versions]
      .sort()
      .reverse()
      .map((name) => ({ name, url: `openapi.json?version=${encodeURIComponent(name)}` }));
    const built = Promise.all(ASSET_NAMES.map(async (name) => [name, (await assetOf(name)).tag] as const)).then((tags) => {
      const tagOf = new Map(tags);
      const html = pageHtml(versions, (name) => `docs/assets/${name}?v=${tagOf.get(name) ?? ''}`);
      return staticContent(Buffer.from(html, 'utf8'), TEXT('text/html'));
    });
    built.catch(() => (page = undefined));
    return (page = built);
  };

  // Strict: `/docs/` would move the page's relative URLs, so only `/docs` is the page.
  const router = new Router<AppState>({ sensitive: true, strict: true });
  router.get('/docs', async function docsPage(ctx) {
    const content = await pageOf();
    ctx.set('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    await content.answer(ctx);
  });
  // One route per file: any other path under /docs/assets is no route at all (404).
  for (const name of ASSET_NAMES) {
    router.get(`/docs/assets/${name}`, async function docsAsset(ctx) {
      const content = await assetOf(name);
      await content.answer(ctx, ctx.query['v'] === content.tag ? IMMUTABLE : 'no-cache');
    });
  }
  const routes = router.routes() as AppMiddleware;
  // Every other request passes straight on, as an area's steps pass other areas' (app.ts), rather than through a
  // second router: @koa/router reads the host and tests each of its patterns on every request it is given
  // (3-5% of the instructions of an /api request in sandbox, where the docs are on; docs/performance.md, round 5).
  return function interactiveDocs(ctx, next) {
    const path = ctx.path;
    return path === '/docs' || path.startsWith('/docs/assets/') ? routes(ctx, next) : next();
  };
};
