/**
 * 2026-11-26: linking an account takes the names the Account shows (docs/decisions/tenancy.md).
 *
 * `POST /api/users/{id}/accounts` took `apr` and `minimum_payment`: the
 * institution's values, behind `effective_apr` and `effective_minimum_payment`
 * when the user set no `user_apr` or `user_minimum_payment`. The Account never
 * showed them under any name, so a client could not read back what it sent.
 * They are now `institution_apr` and `institution_minimum_payment` (beside
 * `institution_name`), in the request and in the Account.
 */
import * as t from 'io-ts';
import { Account } from './account.js';
import { strictObject } from '../shared/codec.js';
import { LinkAccountBody } from './requests.js';
import { mapListItems, pipeTransforms, removeField, renameField } from '../shared/versioning/field-transforms.js';
import type { VersionChange } from '../shared/versioning/version-change.js';

/** This change's field names → the previous version's. */
const RENAMED: Readonly<Record<string, string>> = { institution_apr: 'apr', institution_minimum_payment: 'minimum_payment' };

const renameProps = (props: t.Props): t.Props =>
  Object.fromEntries(Object.entries(props).map(([key, codec]) => [RENAMED[key] ?? key, codec]));

/** The link request as 2024-07-01 takes it: `apr` and `minimum_payment`. */
export const LinkAccountBody20240701 = strictObject(
  'LinkAccountBody',
  renameProps(LinkAccountBody.required),
  renameProps(LinkAccountBody.optional),
);

/** The Account as 2024-07-01 shows it: without the institution's APR and minimum. */
export const Account20240701 = t.type(
  Object.fromEntries(Object.entries(Account.props).filter(([key]) => RENAMED[key] === undefined)),
  'Account',
);

const withoutInstitutionTerms = pipeTransforms(removeField('institution_apr'), removeField('institution_minimum_payment'));

export const accountInstitutionFields: VersionChange = {
  version: '2026-11-26',
  description:
    '`POST /api/users/{id}/accounts` takes `institution_apr` and `institution_minimum_payment` instead of `apr` and `minimum_payment`, ' +
    "and the Account shows them under those names: they are the institution's terms, which `effective_apr` and " +
    '`effective_minimum_payment` fall back to when `user_apr` or `user_minimum_payment` is not set. Before, the Account had no field ' +
    'for what a client sent. In 2024-07-01 the request keeps `apr` and `minimum_payment` (its errors name them) and the Account omits both fields.',
  requests: [
    {
      previous: LinkAccountBody20240701,
      migrate: (body) =>
        pipeTransforms(renameField('apr', 'institution_apr'), renameField('minimum_payment', 'institution_minimum_payment'))(body, {}),
    },
  ],
  transforms: {
    account: withoutInstitutionTerms,
    account_list: mapListItems('accounts', withoutInstitutionTerms),
  },
  previousCodecs: [Account20240701],
};
