/**
 * This feature's object mothers (testing/record-mothers.ts has the kernel's): valid records for its
 * storage ports, every field present (absent values `null`, as stored); overrides replace whole fields.
 */
import type { ClientId } from '../shared/primitives.js';
import type { NewUser } from './user-repository.js';
import { CREATED_AT, isoDate } from '../testing/record-mothers.js';

export const aUser = (clientId: ClientId, overrides: Partial<NewUser> = {}): NewUser => ({
  client_id: clientId,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  date_of_birth: isoDate('1990-12-10'),
  phone: '+15555550100',
  created_at: CREATED_AT,
  ...overrides,
});
