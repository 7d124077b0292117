/**
 * The content feature's request codecs (ArticleListQuery, LearningModulesQuery): what its operations accept, the single source
 * of truth the HTTP adapter decodes with and the OpenAPI document is generated from (shared/requests.ts holds
 * the kernel's shared pieces: page fields, query integers and ids). Objects are strict: unknown fields are rejected.
 */
import type * as t from 'io-ts';
import { strictObject } from '../shared/codec.js';
import { pageFields } from '../shared/requests.js';
import { Category } from './content.js';

export const ArticleListQuery = strictObject('ArticleListQuery', {}, { ...pageFields, category: Category });
export type ArticleListQuery = t.TypeOf<typeof ArticleListQuery>;
export const LearningModulesQuery = strictObject('LearningModulesQuery', {}, { category: Category });
export type LearningModulesQuery = t.TypeOf<typeof LearningModulesQuery>;
