/**
 * One source of randomness (docs/embedding.md): tokens and webhook signing secrets both
 * come from the `SecretGenerator` bound at `PORTS.SecretGenerator`, so an
 * embedding service that rebinds it changes both, and nothing else draws random bytes.
 */
import { expect } from 'chai';
import supertest from 'supertest';
import * as E from 'fp-ts/lib/Either.js';
import { ContainerModule } from 'inversify';
import { PORTS, versioning, type SecretGenerator } from '@debtkit/core';
import { sequentialSecrets } from '@debtkit/core/testing';
import { compose } from '../src/main/composition.js';
import { HTTP, resolve } from '../src/main/container.js';

describe('SecretGenerator: the one randomness port', () => {
  it('a rebound generator makes both the client token and the webhook signing secret', async () => {
    const drawn: string[] = [];
    const counting = sequentialSecrets();
    const recording: SecretGenerator = { secret: () => (drawn.push(counting.secret()), drawn[drawn.length - 1]!) };
    const { app, container, close } = await compose({
      modules: [new ContainerModule(({ rebind }) => void rebind(PORTS.SecretGenerator).toConstantValue(recording))],
    });
    try {
      const created = await resolve(container, HTTP.ClientAccess).createClient({
        name: 'c',
        environment: 'sandbox',
        apiVersion: versioning.latest,
      })();
      if (E.isLeft(created)) throw new Error(created.left.message);
      expect(created.right.token).to.equal(`dk_sandbox_${drawn[0]}`);
      const res = await supertest(app.callback())
        .post('/api/webhook_endpoints')
        .set({ Authorization: `Bearer ${created.right.token}` })
        .send({ url: 'http://127.0.0.1:9/hooks' });
      expect(res.status).to.equal(201);
      expect(drawn).to.have.length(2);
      const secret = (res.body as { secret: string }).secret;
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      // The same 32 bytes, written in base64 as Standard Webhooks reads them.
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).to.deep.equal(Buffer.from(drawn[1]!, 'base64url'));
    } finally {
      await close();
    }
  });
});
