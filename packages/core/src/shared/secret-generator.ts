/**
 * The only source of randomness for use cases: 32 bytes from a
 * cryptographically secure source, as 43 base64url characters (no padding).
 * Core turns them into a token secret (the environment's prefix added, anything
 * not of that shape refused) or a webhook signing secret (`whsec_` + base64).
 */
export interface SecretGenerator {
  secret(): string;
}
