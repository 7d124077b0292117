/**
 * The Node adapters of core's token ports (docs/decisions/tenancy.md): SHA-256 (hex) as the
 * stored form of a token, and 32 random bytes (base64url) as its secret. The
 * rules of issuing, looking up and revoking tokens are core's use cases
 * (`createClientAccess`); this file only supplies the cryptography.
 */
import { hash, randomBytes } from 'node:crypto';
import { type Environment, type SecretGenerator, type TokenHasher, newToken } from '@debtkit/core';

export class Sha256TokenHasher implements TokenHasher {
  // `crypto.hash` is the one-shot form: a third of createHash's cost, and it runs on every request.
  hash(token: string): string {
    return hash('sha256', token, 'hex');
  }
}

export class RandomSecretGenerator implements SecretGenerator {
  secret(): string {
    return randomBytes(32).toString('base64url');
  }
}

const secrets = new RandomSecretGenerator();

/** A fresh random token for `environment`, outside any composition (tests, an operator's DEBTKIT_BOOTSTRAP_TOKEN). */
export const generateToken = (environment: Environment): string => newToken(secrets, environment);
