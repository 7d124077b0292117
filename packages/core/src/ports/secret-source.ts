/** Fresh secrets; the only source of randomness for use cases. */
export interface SecretSource {
  /** A webhook signing secret: `whsec_` + base64 of 32 random bytes. */
  webhookSecret(): string;
}
