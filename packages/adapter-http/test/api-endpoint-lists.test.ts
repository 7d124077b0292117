/**
 * `API_ENDPOINTS` is the concatenation of the features' lists (src/http/routes/<feature>.ts,
 * docs/adding-a-resource.md): a feature's list left out of it would build and serve nothing, so this
 * checks every `*_ENDPOINTS` list of the routes folder (but the built-in and admin tables, served
 * apart) is in it, entry for entry.
 */
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { API_ENDPOINTS } from '../src/http/routes/api-endpoints.js';

const SERVED_APART = new Set(['API_ENDPOINTS', 'BUILTIN_ENDPOINTS', 'ADMIN_ENDPOINTS']);

describe('the API endpoint table (routes/api-endpoints.ts)', () => {
  it("holds every feature's endpoint list of the routes folder, entry for entry", async () => {
    const folder = new URL('../src/http/routes/', import.meta.url);
    // By route (method and path): the test may load a module apart from the table's copy (source mode).
    const routes = new Set(API_ENDPOINTS.map((e) => `${e.method} ${e.path}`));
    const modules = readdirSync(folder).filter((file) => /^[a-z-]+\.(js|ts)$/.test(file) && !file.endsWith('.d.ts'));
    const lists: string[] = [];
    for (const file of modules) {
      const exported = (await import(new URL(file, folder).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exported))
        if (name.endsWith('_ENDPOINTS') && !SERVED_APART.has(name) && Array.isArray(value)) {
          lists.push(name);
          for (const entry of value as ReadonlyArray<{ method: string; path: string }>)
            expect(routes.has(`${entry.method} ${entry.path}`), `${name} (${file}): ${entry.method} ${entry.path}`).to.equal(true);
        }
    }
    // The features' lists of today, so the check cannot pass by finding none.
    expect(lists).to.include.members(['USER_ENDPOINTS', 'ACCOUNT_ENDPOINTS', 'WEBHOOK_API_ENDPOINTS', 'SANDBOX_ENDPOINTS']);
  });
});
