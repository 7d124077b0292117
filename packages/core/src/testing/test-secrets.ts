import type { SecretGenerator } from '../shared/secret-generator.js';
import type { TokenHasher } from '../clients/token-hasher.js';

/**
 * A `SecretGenerator` for tests: distinct, well-formed secrets (43 base64url
 * characters) from a counter, so a test needs no randomness and can tell which
 * secret came from which call.
 */
export const sequentialSecrets = (): SecretGenerator => {
  let n = 0;
  return { secret: () => `test${(++n).toString(36)}`.padEnd(43, 'A') };
};

/** A `TokenHasher` for tests: readable and deterministic, distinct tokens give distinct hashes (no crypto needed). */
export const readableTokenHasher: TokenHasher = { hash: (token) => `test-hash:${token}` };

/** A well-formed sandbox token for tests: `dk_sandbox_` and 43 base64url characters, distinct for distinct `n`. */
export const aSandboxToken = (n: number): string => `dk_sandbox_${`t${n.toString(36)}`.padEnd(43, 'A')}`;
