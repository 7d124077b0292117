/**
 * This feature's object mothers (testing/record-mothers.ts has the kernel's): valid records for its
 * storage ports, every field present (absent values `null`, as stored); overrides replace whole fields.
 */
import type { NewClient } from './client-repository.js';
import { CREATED_AT } from '../testing/record-mothers.js';

export const aClient = (overrides: Partial<NewClient> = {}): NewClient => ({
  name: 'Acme Budgeting',
  environment: 'sandbox',
  api_version: '2024-07-01',
  created_at: CREATED_AT,
  ...overrides,
});
