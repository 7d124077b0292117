/**
 * The users feature's request codecs (CreateUserBody, PatchUserBody): what its operations accept, the single source
 * of truth the HTTP adapter decodes with and the OpenAPI document is generated from (shared/requests.ts holds
 * the kernel's shared pieces: page fields, query integers and ids). Objects are strict: unknown fields are rejected.
 */
import * as t from 'io-ts';
import { IsoDate, nullable } from '../shared/primitives.js';
import { boundedString, strictObject } from '../shared/codec.js';
import { Name } from '../shared/request-fields.js';

const Email = t.refinement(boundedString(3, 254, 'email'), (s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), 'email');
const Phone = t.refinement(t.string, (s) => /^\+?[0-9 ()-]{7,20}$/.test(s), 'phone(7..20 digits, spaces, +()-)');
const userFields = {
  first_name: nullable(Name),
  email: nullable(Email),
  date_of_birth: nullable(IsoDate),
  phone: nullable(Phone),
};

export const CreateUserBody = strictObject('CreateUserBody', { last_name: Name }, userFields);
export type CreateUserBody = t.TypeOf<typeof CreateUserBody>;

export const PatchUserBody = strictObject('PatchUserBody', {}, { last_name: Name, ...userFields });
export type PatchUserBody = t.TypeOf<typeof PatchUserBody>;
