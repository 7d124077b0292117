/**
 * Every resource endpoint over HTTP on the memory store.
 */
import { createMemoryStore } from '@debtkit/adapter-memory';
import { apiResourceSuite } from './support/api-resource-suite.js';

apiResourceSuite('memory store', async () => createMemoryStore());
