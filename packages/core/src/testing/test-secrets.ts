import type { SecretGenerator } from '../shared/secret-generator.js';

/**
 * A `SecretGenerator` for tests: distinct, well-formed secrets (43 base64url
 * characters) from a counter, so a test needs no randomness and can tell which
 * secret came from which call.
 */
export const sequentialSecrets = (): SecretGenerator => {
  let n = 0;
  return { secret: () => `test${(++n).toString(36)}`.padEnd(43, 'A') };
};
