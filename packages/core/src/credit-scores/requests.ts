/**
 * The credit scores feature's request codecs (CreditScoreHistoryQuery): what its operations accept, the single source
 * of truth the HTTP adapter decodes with and the OpenAPI document is generated from (shared/requests.ts holds
 * the kernel's shared pieces: page fields, query integers and ids). Objects are strict: unknown fields are rejected.
 */
import type * as t from 'io-ts';
import { strictObject } from '../shared/codec.js';
import { QueryId } from '../shared/requests.js';

/**
 * The credit score history's query (docs/decisions/payoff-and-outlook.md, docs/decisions/tenancy.md): newest first, so
 * `starting_after` (the last id of the previous page) asks for the scores
 * older than it. No count limit: the history ends early only by size.
 */
export const CreditScoreHistoryQuery = strictObject('CreditScoreHistoryQuery', {}, { starting_after: QueryId });
export type CreditScoreHistoryQuery = t.TypeOf<typeof CreditScoreHistoryQuery>;
