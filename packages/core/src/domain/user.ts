/**
 * Users (DESIGN 7.1). A user belongs to the client that created it.
 */
import * as t from 'io-ts';
import { ClientId, UserId, IsoDate, Timestamp, nullable } from './primitives.js';

export const UserRecord = t.type(
  {
    id: UserId,
    client_id: ClientId,
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
    id: UserId,
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
