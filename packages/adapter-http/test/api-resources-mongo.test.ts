/**
 * The same resource suite on the mongo store, through the real `mongodb` driver:
 * against `MONGODB_URL` when it is set, otherwise against the wire-protocol test server.
 * Each test gets its own database.
 */
import { useMongoStores } from './support/mongo-stores.js';
import { apiResourceSuite } from './support/api-resource-suite.js';

describe('HTTP API on the mongo store', () => {
  const mongo = useMongoStores('http');
  apiResourceSuite(mongo.label, mongo.connect);
});
