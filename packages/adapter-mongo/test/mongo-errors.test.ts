/**
 * The adapter's one rule for driver failures (mongo-errors.ts): everything that
 * means "the server is not reachable or dropped the connection" is
 * `unavailable` (503), including socket errors the driver passes on as plain
 * `Error`s (issue 11: a plain Error with `code: 'EPIPE'` became a 500).
 */
import { expect } from 'chai';
import { MongoNetworkError, MongoServerError, MongoServerSelectionError, MongoNetworkTimeoutError } from 'mongodb';
import {
  STANDALONE_REASON,
  StandaloneServerError,
  isTransientTransactionError,
  isUnavailableError,
  toDomainError,
  STORE_UNAVAILABLE,
} from '../src/index.js';

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });

describe('mongo error classification', () => {
  for (const code of ['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH']) {
    it(`a plain Error with code ${code} is unavailable`, () => {
      const error = withCode('socket has been ended by the other party', code);
      expect(isUnavailableError(error)).to.equal(true);
      expect(toDomainError(error, 'dup')).to.deep.equal({ _tag: 'unavailable', message: STORE_UNAVAILABLE });
    });
  }

  it('a socket error wrapped as the cause of another error is unavailable', () => {
    expect(isUnavailableError(new Error('write failed', { cause: withCode('reset', 'ECONNRESET') }))).to.equal(true);
  });

  it('network errors, network timeouts, server selection and a cleared pool are unavailable', () => {
    expect(isUnavailableError(new MongoNetworkError('connection closed'))).to.equal(true);
    expect(isUnavailableError(new MongoNetworkTimeoutError('timed out'))).to.equal(true);
    expect(
      isUnavailableError(
        new MongoServerSelectionError('no server', {
          type: 'Unknown',
          servers: new Map(),
          stale: false,
          compatible: true,
          heartbeatFrequencyMS: 10000,
          localThresholdMS: 15,
          setName: null,
          maxElectionId: null,
          maxSetVersion: null,
          commonWireVersion: 0,
          logicalSessionTimeoutMinutes: null,
        } as never),
      ),
    ).to.equal(true);
    class MongoPoolClearedError extends MongoNetworkError {
      override get name(): string {
        return 'MongoPoolClearedError';
      }
    }
    expect(isUnavailableError(new MongoPoolClearedError('pool cleared'))).to.equal(true);
  });

  it('bugs stay bugs: a plain Error without a socket code, an unknown code, a rejected command', () => {
    expect(isUnavailableError(new Error('boom'))).to.equal(false);
    expect(isUnavailableError(withCode('no such file', 'ENOENT'))).to.equal(false);
    expect(isUnavailableError(new TypeError('x is undefined'))).to.equal(false);
    expect(isUnavailableError(new MongoServerError({ message: 'unknown operator', code: 2 }))).to.equal(false);
    expect(toDomainError(new Error('boom'), 'dup')).to.equal(undefined);
  });

  describe('in a transaction (docs/decisions/transactions.md)', () => {
    const transient = (error: MongoServerError | MongoNetworkError): typeof error => {
      error.addErrorLabel('TransientTransactionError');
      return error;
    };

    it('WriteConflict (112) is a write conflict the unit of work runs again, with or without the label', () => {
      const expected = { _tag: 'conflict', message: 'The record was changed by a concurrent request', transient: true };
      expect(toDomainError(new MongoServerError({ message: 'WriteConflict', code: 112, codeName: 'WriteConflict' }), 'dup')).to.deep.equal(
        expected,
      );
      expect(toDomainError(transient(new MongoServerError({ message: 'WriteConflict', code: 112 })), 'dup')).to.deep.equal(expected);
      // A transaction the server aborted (e.g. past transactionLifetimeLimitSeconds) is run again too.
      expect(toDomainError(transient(new MongoServerError({ message: 'no such transaction', code: 251 })), 'dup')).to.deep.equal(expected);
      expect(isTransientTransactionError(new MongoServerError({ message: 'unknown operator', code: 2 }))).to.equal(false);
    });

    it('a lost server is unavailable at once, even though the driver labels it TransientTransactionError in a transaction', () => {
      expect(toDomainError(transient(new MongoNetworkError('connection closed')), 'dup')).to.deep.equal({
        _tag: 'unavailable',
        message: STORE_UNAVAILABLE,
      });
    });

    it('a duplicate key stays a plain conflict (not run again)', () => {
      expect(toDomainError(new MongoServerError({ message: 'E11000', code: 11000 }), 'taken')).to.deep.equal({
        _tag: 'conflict',
        message: 'taken',
      });
    });

    it('a standalone server is unavailable with the reason', () => {
      expect(toDomainError(new StandaloneServerError(), 'dup')).to.deep.equal({
        _tag: 'unavailable',
        message: STANDALONE_REASON,
        explained: true,
      });
    });
  });
});
