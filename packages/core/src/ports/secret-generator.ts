/**
 * Randomness for new token secrets: 32 bytes from a cryptographically secure
 * source, as 43 base64url characters (no padding). Core adds the environment's
 * prefix and refuses anything not of that shape.
 */
export interface SecretGenerator {
  secret(): string;
}
