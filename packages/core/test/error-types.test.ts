/**
 * Errors per use case (docs/decisions/errors.md): one type per tag, the tags core
 * produces and no other, and each use case's type naming exactly the tags it can
 * return. The type-level checks fail the build (`tsc -b`) the day they stop holding;
 * `outsideTransaction` is checked at run time too.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import {
  conflict,
  notFound,
  unavailable,
  type BureauError,
  type Conflict,
  type DomainError,
  type NotFound,
  type QuotaExceeded,
  type StoreError,
  type Unavailable,
  type ValidationError,
} from '../src/shared/errors.js';
import { outsideTransaction, type Change } from '../src/shared/deps.js';
import { getAccount, linkAccount } from '../src/accounts/use-cases.js';
import { createUser, getUser } from '../src/users/use-cases.js';
import { submitBureauIdentity, validateBureauOtp } from '../src/bureau/use-cases.js';
import { getCreditOutlook } from '../src/payment-plans/credit-outlook.use-cases.js';

/** `true` only when `A` and `B` are the same type. */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** The errors a bound use case answers. */
type ErrorsOf<U extends (...args: never[]) => (...args: never[]) => unknown> =
  ReturnType<ReturnType<U>> extends Change<unknown, infer E>
    ? E
    : ReturnType<ReturnType<U>> extends TE.TaskEither<infer E, unknown>
      ? E
      : never;

describe('error types', () => {
  it('gives each tag its own type, and its constructor returns it', () => {
    const missing: NotFound = notFound('gone');
    // @ts-expect-error a not_found is not a conflict
    const wrong: Conflict = notFound('gone');
    expect([missing._tag, wrong._tag]).to.deep.equal(['not_found', 'not_found']);
  });

  it('DomainError is the tags core produces: no unauthorized, forbidden or unsupported_version', () => {
    const tags: Equals<
      DomainError['_tag'],
      'validation_error' | 'not_found' | 'conflict' | 'bureau_error' | 'quota_exceeded' | 'unavailable'
    > = true;
    // @ts-expect-error only the HTTP adapter answers unauthorized (its error table)
    const httpOnly: DomainError = { _tag: 'unauthorized', message: 'no token' };
    expect([tags, httpOnly._tag]).to.deep.equal([true, 'unauthorized']);
  });

  it('names exactly the tags each use case can return', () => {
    const exact: [boolean, boolean, boolean, boolean, boolean, boolean, boolean] = [
      true satisfies Equals<ErrorsOf<typeof linkAccount>, ValidationError | NotFound | QuotaExceeded | StoreError>,
      true satisfies Equals<ErrorsOf<typeof getAccount>, NotFound | Unavailable>,
      true satisfies Equals<ErrorsOf<typeof createUser>, StoreError>,
      true satisfies Equals<ErrorsOf<typeof getUser>, NotFound | Unavailable>,
      true satisfies Equals<ErrorsOf<typeof validateBureauOtp>, ValidationError | NotFound | StoreError>,
      true satisfies Equals<ErrorsOf<typeof submitBureauIdentity>, ValidationError | NotFound | BureauError | StoreError>,
      true satisfies Equals<ErrorsOf<typeof getCreditOutlook>, NotFound | Conflict | Unavailable>,
    ];
    // @ts-expect-error a read outside a transaction does not answer conflict
    const wider = true satisfies Equals<ErrorsOf<typeof getAccount>, NotFound | StoreError>;
    expect([...exact, wider]).to.deep.equal([true, true, true, true, true, true, true, true]);
  });

  describe('outsideTransaction', () => {
    it('passes a value, and every error but a conflict, through', async () => {
      expect(await outsideTransaction(TE.right(7))()).to.deep.equal(E.right(7));
      expect(await outsideTransaction(TE.left(unavailable('down')))()).to.deep.equal(E.left(unavailable('down')));
      expect(await outsideTransaction(TE.left<NotFound | StoreError, number>(notFound('gone')))()).to.deep.equal(E.left(notFound('gone')));
    });

    it('throws on a conflict (a store bug outside a transaction), never answers it', async () => {
      const read = outsideTransaction(TE.left<StoreError, number>(conflict('lost')));
      const failed = await read().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failed).to.be.instanceOf(Error);
      expect((failed as Error).message).to.match(/outside a transaction with a conflict: lost/);
    });
  });
});
