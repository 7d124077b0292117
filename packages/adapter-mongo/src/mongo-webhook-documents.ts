/**
 * Persistence codecs of events and deliveries: the record with `_id` as usual,
 * (and of audit records) plus `purge_at`, the BSON date copy of `expires_at` that the TTL indexes
 * (mongo-collections.ts) expire on. It is dropped again when reading.
 */
import type { Document } from 'mongodb';
import { AuditRecord, EventRecord, WebhookDeliveryRecord } from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { documentCodec, type DocumentCodec } from './mongo-document-codec.js';

export const withPurgeDate = <A extends { readonly expires_at: string }>(base: DocumentCodec<A>): DocumentCodec<A> => ({
  ...base,
  encode: (record) => ({ ...base.encode(record), purge_at: new Date(record.expires_at) }),
  decode: (document: Document) => {
    const { purge_at: _purgeAt, ...rest } = document;
    return base.decode(rest);
  },
});

export const EventDocument = withPurgeDate(documentCodec(COLLECTION_NAMES.events, EventRecord, 'id'));
export const WebhookDeliveryDocument = withPurgeDate(documentCodec(COLLECTION_NAMES.webhookDeliveries, WebhookDeliveryRecord, 'id'));
export const AuditDocument = withPurgeDate(documentCodec(COLLECTION_NAMES.auditEvents, AuditRecord, 'id'));
