/**
 * The operators' audit log (docs/operations.md, round 4): one record per admin change,
 * appended in the change's own transaction, kept a year. A record names what
 * was done to what, and who asked (the request id and client address of the
 * admin request; both `null` when the CLI made the change). It never holds a
 * token: only token ids.
 */
import * as t from 'io-ts';
import { Id, Timestamp, nullable } from '../shared/primitives.js';

export const AuditAction = t.keyof(
  {
    'client.created': null,
    'client.version_changed': null,
    'token.issued': null,
    'token.rolled': null,
    'token.revoked': null,
  },
  'AuditAction',
);
export type AuditAction = t.TypeOf<typeof AuditAction>;

export const AuditTargetType = t.keyof({ client: null, token: null }, 'AuditTargetType');
export type AuditTargetType = t.TypeOf<typeof AuditTargetType>;

export const AuditTarget = t.type({ type: AuditTargetType, id: Id }, 'AuditTarget');
export type AuditTarget = t.TypeOf<typeof AuditTarget>;

/** An audit event as `GET /admin/audit_events` answers it. */
export const AuditEvent = t.type(
  {
    id: Id,
    at: Timestamp,
    action: AuditAction,
    target: AuditTarget,
    request_id: nullable(t.string),
    ip: nullable(t.string),
  },
  'AuditEvent',
);
export type AuditEvent = t.TypeOf<typeof AuditEvent>;

/** A stored audit event: the event and when the store may drop it. */
export const AuditRecord = t.intersection([AuditEvent, t.type({ expires_at: Timestamp })], 'AuditRecord');
export type AuditRecord = t.TypeOf<typeof AuditRecord>;

/** How long an audit record is kept: a year. */
export const AUDIT_RETENTION_MS = 365 * 24 * 60 * 60 * 1000;

/** Who asked for an admin change: the admin request's id and client address, or `null` for both (the CLI). */
export interface AuditActor {
  readonly request_id: string | null;
  readonly ip: string | null;
}

/** A change made with no HTTP request (the `debtkit` CLI). */
export const NO_REQUEST: AuditActor = { request_id: null, ip: null };

export const auditEventOf = (record: AuditRecord): AuditEvent => ({
  id: record.id,
  at: record.at,
  action: record.action,
  target: { type: record.target.type, id: record.target.id },
  request_id: record.request_id,
  ip: record.ip,
});
