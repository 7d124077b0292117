/** Tokens for tests (testing/test-secrets.ts has the kernel's secrets): a readable hasher and well-formed sandbox tokens. */
import type { TokenHasher } from './token-hasher.js';

/** A `TokenHasher` for tests: readable and deterministic, distinct tokens give distinct hashes (no crypto needed). */
export const readableTokenHasher: TokenHasher = { hash: (token) => `test-hash:${token}` };

/** A well-formed sandbox token for tests: `dk_sandbox_` and 43 base64url characters, distinct for distinct `n`. */
export const aSandboxToken = (n: number): string => `dk_sandbox_${`t${n.toString(36)}`.padEnd(43, 'A')}`;
