/**
 * Users (docs/api/reference.md). A user belongs to the client that created it.
 */
import * as t from 'io-ts';
import { Id, IsoDate, Timestamp, nullable } from '../shared/primitives.js';

export const UserRecord = t.type(
  {
    id: Id,
    client_id: Id,
    first_name: nullable(t.string),
    last_name: t.string,
    email: nullable(t.string),
    date_of_birth: nullable(IsoDate),
    phone: nullable(t.string),
    created_at: Timestamp,
  },
  'UserRecord',
);
export type UserRecord = t.TypeOf<typeof UserRecord>;

/** The API's User object. */
export const User = t.type(
  {
    id: Id,
    first_name: nullable(t.string),
    last_name: t.string,
    email: nullable(t.string),
    date_of_birth: nullable(IsoDate),
    phone: nullable(t.string),
    created_at: Timestamp,
  },
  'User',
);
export type User = t.TypeOf<typeof User>;

export const toUserView = (u: UserRecord): User => ({
  id: u.id,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  date_of_birth: u.date_of_birth,
  phone: u.phone,
  created_at: u.created_at,
});
