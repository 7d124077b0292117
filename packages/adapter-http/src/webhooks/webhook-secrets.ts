import { randomBytes } from 'node:crypto';
import type { SecretSource } from '@debtkit/core';

/** Signing secrets as Standard Webhooks writes them: `whsec_` + base64 of 32 random bytes (DESIGN 7.11). */
export const nodeSecretSource: SecretSource = {
  webhookSecret: () => `whsec_${randomBytes(32).toString('base64')}`,
};
