/**
 * How a token's secret is stored: only its hash is kept (docs/decisions/tenancy.md), so a leaked
 * store leaks no usable token. The same input must always give the same hash
 * (tokens are looked up by it); the debtkit server uses SHA-256, hex.
 */
export interface TokenHasher {
  hash(token: string): string;
}
