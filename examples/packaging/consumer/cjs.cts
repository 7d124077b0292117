/**
 * A CommonJS service: `require` of the ESM packages (Node 20.19+ loads ESM
 * through require), typed by TypeScript's NodeNext resolution. Prints one JSON line.
 */
import core = require('@debtkit/core');
import memory = require('@debtkit/adapter-memory');
import E = require('fp-ts/lib/Either.js');
import crypto = require('node:crypto');
import debtkitClient = require('@debtkit/client');

const clock: core.Clock = { now: () => new Date('2026-03-15T09:30:00.000Z') };

const main = async (): Promise<void> => {
  const store = memory.createMemoryStore();
  const client = await store.clients.create({
    name: 'cjs',
    environment: 'sandbox',
    api_version: core.CURRENT_VERSION,
    created_at: core.timestampOf(clock.now()),
  })();
  if (E.isLeft(client)) throw new Error(client.left.message);
  const app = core.createApplication({
    ...store,
    clock,
    bureau: new memory.SandboxCreditBureau(),
    secrets: { secret: () => crypto.randomBytes(32).toString('base64url') },
  });
  const users = await app.listUsers(client.right.id, {})();
  const secret = `whsec_${Buffer.from('a consumer secret of 32 bytes...').toString('base64')}`;
  const signed = await debtkitClient.signWebhook(
    secret,
    {
      id: 2,
      type: 'user.deleted',
      created_at: '2026-03-15T09:30:00.000Z',
      api_version: '2024-07-01',
      data: { user_id: 1, object: { id: 1 } },
    },
    { timestamp: clock.now() },
  );
  const event = await debtkitClient.verifyWebhook(secret, signed.headers, signed.body, { apiVersion: '2024-07-01', now: clock.now() });
  console.log(
    JSON.stringify({
      rating: core.classify('credit_utilization', 50),
      users: E.isRight(users) ? users.right.items.length : users.left._tag,
      versions: debtkitClient.API_VERSIONS.length,
      webhook: event.api_version,
    }),
  );
};

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
