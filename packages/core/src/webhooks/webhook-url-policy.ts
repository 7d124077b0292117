import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ValidationError } from '../shared/errors.js';

/**
 * Which webhook URLs may be registered (docs/decisions/webhooks.md): the adapter that knows
 * the environment and can resolve names decides (https only and public
 * addresses only in production). Answers `validation_error` for a refused URL.
 */
export interface WebhookUrlPolicy {
  check(url: string): TE.TaskEither<ValidationError, void>;
}
