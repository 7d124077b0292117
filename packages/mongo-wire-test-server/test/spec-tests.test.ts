/**
 * MongoDB's own unified-format spec tests (mongodb/specifications, pinned
 * below) through the real driver against the wire test server: transactions,
 * transactions-convenient-api, retryable-writes, crud and sessions (snapshot
 * reads and what a snapshot session refuses).
 *
 * The JSON files are NOT in this repository: they are read at test time from
 * a local git mirror of the specifications repository
 * (`git --git-dir=<mirror> show <commit>:<path>`). DEBTKIT_SPECS_GIT_DIR
 * names the mirror; `npm run test:specs` in this package sets it (default
 * /work/.mirror/mongodb+specifications/repo). When it is not set (the root
 * `npm test`, CI), or the mirror or the pinned commit is missing, the suite
 * shows one pending test saying so: it never passes silently.
 *
 * Every test runs unless this server cannot meet its runOnRequirements (then
 * it is pending with the reason). A test listed in KNOWN_GAPS (with the
 * reason it does not matter to debtkit) that fails is pending with that
 * reason; a listed test that passes fails the suite (take it off the list);
 * every other failure fails the suite. The counts per directory are
 * printed at the end and recorded in the README.
 *
 * Two modes. By default the server is reset (`server.reset()`: data, sessions,
 * transactions, fail points) before each test, so each test starts on a clean
 * server. With DEBTKIT_SPECS_NO_RESET=1 it is never reset: the runner does
 * only what a unified-format runner does against a real server (drop and
 * re-create the initialData collections, turn off the fail points a test set,
 * and send `killAllSessions` before each test, as the driver's own runner
 * does), so a failure that an earlier test left behind on the server shows up
 * as a failure of a later test.
 */
import { execFileSync } from 'node:child_process';
import { BSON, MongoClient } from 'mongodb';
import { startWireServer, type WireServer } from '../src/index.js';
import { UnifiedRun, Unsupported, unmetRequirement, type UnifiedFile } from './spec/unified-runner.js';

/**
 * The mirror to read, only when asked: CI (`.ci/run`, a clean clone) and the root
 * `npm test` do not fetch the specifications, so there the suite is one pending
 * test saying so. `npm run test:specs -w @debtkit/mongo-wire-test-server` sets it
 * (default /work/.mirror/mongodb+specifications/repo, where this machine's mirror is).
 */
const MIRROR = process.env['DEBTKIT_SPECS_GIT_DIR'];
/** Never reset the server between tests (see above). */
const NO_RESET = process.env['DEBTKIT_SPECS_NO_RESET'] === '1';
const MODE = NO_RESET ? 'no reset between tests' : 'server reset before each test';
/** mongodb/specifications at this commit (2026, "DRIVERS-3588"). */
const COMMIT = '92b3c0b9287bfba1b0ec4084300858d05c654f8c';
const DIRECTORIES = [
  'source/transactions/tests/unified',
  'source/transactions-convenient-api/tests/unified',
  'source/retryable-writes/tests/unified',
  'source/crud/tests/unified',
  'source/sessions/tests',
] as const;

/**
 * Tests that fail here, each with why it does not matter to debtkit. Keys:
 * `<directory>/<file>` (the whole file) or `<directory>/<file>#<test description>`.
 */
const DRIVER_WTIMEOUT =
  'driver-side: driver 7.x puts wtimeout: 10000 into the writeConcern of commitTransaction/abortTransaction, which the expectation omits; the command is built by the driver, not answered by the server';
const DRIVER_BYPASS =
  'driver-side: driver 7.x leaves out bypassDocumentValidation: false, which the expectation wants sent; debtkit never sets it';
const NO_SECONDARY =
  'a one-node replica set has no secondary, so a secondary read preference cannot be served; debtkit reads from the primary only';
const PER_STATEMENT =
  "onPrimaryTransactionalWrite fires per command here, per statement on mongod; the retry itself is answered from the record (the single-statement retry tests pass). debtkit's retried writes are single-statement";
const CAUSAL =
  'the driver adds readConcern.afterClusterTime on a causally consistent session once it has an operationTime; the expectation assumes none was gossiped yet. Not a server behaviour debtkit relies on';
const OUT_MERGE =
  '$out/$merge and database-level aggregate are not implemented (answered CommandNotSupported); debtkit never writes through an aggregation';
const COLLATION =
  "refused: a collation other than simple answers BadValue (2, \"Field 'locale' is not a valid ICU locale\"), as mongod answers a locale its ICU does not know (this server has no ICU; mingo would honour a locale in some places and ignore it in others); debtkit uses MongoDB's default (simple) collation";
const SNAPSHOT_READ =
  'refused: readConcern snapshot outside a transaction answers InvalidOptions (72, "Storage engine does not support read concern"), as mongod does on a storage engine without snapshot history; this server keeps none outside transactions and would answer with current data. debtkit reads at snapshot only inside its transactions, which pass';
const CLIENT_BULK = 'client-level bulkWrite (MongoDB 8.0) is not supported by this runner; debtkit does not use it';
const NULL_ID = 'an _id of null is not matched by { _id: null } queries here; debtkit ids are never null';
const COMMENT = 'find with comment returns an extra projected field here; comment is accepted and ignored, debtkit sends no comment';
const LET = "let variables in update pipelines are not passed to mingo's update stage; debtkit's only let is in a $lookup (which passes)";
const PIPELINE_ID =
  "pipeline-style updates that rebuild the document (e.g. $replaceRoot) trip this server's _id immutability check; debtkit's updates are operator updates";
const SOCKET_CLIENT =
  'the runner classifies a closed connection differently from the format (network error vs client error); the server closes the connection as asked';
const VIEWS =
  'refused: create with viewOn answers CommandNotSupported (115); views are not implemented (accepting one made a plain, empty collection that counted 0). debtkit uses none';
const VALIDATION =
  'refused: create with a validator answers CommandNotSupported (115); document validation is not implemented (accepting one made a validator that never rejects). debtkit uses none';
const DOLLAR_ID = 'a $-prefixed field inside _id is accepted here, refused by MongoDB; debtkit ids are integers or strings';
const CONN_ERRORS =
  'the number of commands after repeated closeConnection faults differs from the expectation (driver pool timing); the transaction itself is retried and commits';

/**
 * Tests that fail here, each with why it does not matter to debtkit. Keys:
 * `<directory>/<file>` (the whole file) or `<directory>/<file>#<test description>`.
 */
const KNOWN_GAPS: ReadonlyMap<string, string> = new Map([
  ['source/crud/tests/unified/aggregate-collation.json#Aggregate with collation', COLLATION],
  ['source/crud/tests/unified/aggregate-let.json#Aggregate to collection with let option', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-let.json#Aggregate with let option', LET],
  ['source/crud/tests/unified/aggregate-merge-errorResponse.json#aggregate $merge DuplicateKey error is accessible', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-merge.json#Aggregate with $merge', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-merge.json#Aggregate with $merge and available readConcern', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-merge.json#Aggregate with $merge and batch size of 0', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-merge.json#Aggregate with $merge and local readConcern', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-merge.json#Aggregate with $merge and majority readConcern', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-out-readConcern.json#readConcern available with out stage', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-out-readConcern.json#readConcern local with out stage', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-out-readConcern.json#readConcern majority with out stage', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-out.json#Aggregate with $out', OUT_MERGE],
  ['source/crud/tests/unified/aggregate-out.json#Aggregate with $out and batch size of 0', OUT_MERGE],
  [
    'source/crud/tests/unified/aggregate-write-readPreference.json#Aggregate with $merge includes read preference for 5.0+ server',
    OUT_MERGE,
  ],
  ['source/crud/tests/unified/aggregate-write-readPreference.json#Aggregate with $out includes read preference for 5.0+ server', OUT_MERGE],
  ['source/crud/tests/unified/bulkWrite-collation.json#BulkWrite with delete operations and collation', COLLATION],
  ['source/crud/tests/unified/bulkWrite-collation.json#BulkWrite with update operations and collation', COLLATION],
  ['source/crud/tests/unified/bulkWrite-updateOne-pipeline.json#UpdateOne in bulk write using pipelines', PIPELINE_ID],
  ['source/crud/tests/unified/bypassDocumentValidation.json#Aggregate with $out passes bypassDocumentValidation: false', OUT_MERGE],
  ['source/crud/tests/unified/bypassDocumentValidation.json#BulkWrite passes bypassDocumentValidation: false', DRIVER_BYPASS],
  ['source/crud/tests/unified/bypassDocumentValidation.json#FindOneAndReplace passes bypassDocumentValidation: false', DRIVER_BYPASS],
  ['source/crud/tests/unified/bypassDocumentValidation.json#FindOneAndUpdate passes bypassDocumentValidation: false', DRIVER_BYPASS],
  ['source/crud/tests/unified/bypassDocumentValidation.json#InsertMany passes bypassDocumentValidation: false', DRIVER_BYPASS],
  ['source/crud/tests/unified/client-bulkWrite-update-validation.json#client bulkWrite replaceOne prohibits atomic modifiers', CLIENT_BULK],
  ['source/crud/tests/unified/client-bulkWrite-update-validation.json#client bulkWrite updateMany requires atomic modifiers', CLIENT_BULK],
  ['source/crud/tests/unified/client-bulkWrite-update-validation.json#client bulkWrite updateOne requires atomic modifiers', CLIENT_BULK],
  ['source/crud/tests/unified/count-collation.json#Count documents with collation', COLLATION],
  ['source/crud/tests/unified/count-collation.json#Deprecated count with collation', COLLATION],
  ['source/crud/tests/unified/create-null-ids.json#inserting _id with type null via bulkWrite', NULL_ID],
  ['source/crud/tests/unified/create-null-ids.json#inserting _id with type null via insertMany', NULL_ID],
  ['source/crud/tests/unified/create-null-ids.json#inserting _id with type null via insertOne', NULL_ID],
  ['source/crud/tests/unified/db-aggregate-rawdata.json#Aggregate with rawData option on less than 8.2.0 - ignore argument', OUT_MERGE],
  [
    'source/crud/tests/unified/db-aggregate-write-readPreference.json#Database-level aggregate with $merge includes read preference for 5.0+ server',
    OUT_MERGE,
  ],
  [
    'source/crud/tests/unified/db-aggregate-write-readPreference.json#Database-level aggregate with $out includes read preference for 5.0+ server',
    OUT_MERGE,
  ],
  ['source/crud/tests/unified/db-aggregate.json#Aggregate with $listLocalSessions', OUT_MERGE],
  ['source/crud/tests/unified/db-aggregate.json#Aggregate with $listLocalSessions and allowDiskUse', OUT_MERGE],
  ['source/crud/tests/unified/deleteMany-collation.json#DeleteMany when many documents match with collation', COLLATION],
  ['source/crud/tests/unified/deleteOne-collation.json#DeleteOne when many documents matches with collation', COLLATION],
  ['source/crud/tests/unified/distinct-collation.json#Distinct with a collation', COLLATION],
  ['source/crud/tests/unified/estimatedDocumentCount.json#estimatedDocumentCount errors correctly--socket error', SOCKET_CLIENT],
  ['source/crud/tests/unified/estimatedDocumentCount.json#estimatedDocumentCount works correctly on views', VIEWS],
  ['source/crud/tests/unified/find-collation.json#Find with a collation', COLLATION],
  ['source/crud/tests/unified/find-comment.json#find with document comment', COMMENT],
  ['source/crud/tests/unified/find-comment.json#find with string comment', COMMENT],
  ['source/crud/tests/unified/findOneAndDelete-collation.json#FindOneAndDelete when one document matches with collation', COLLATION],
  [
    'source/crud/tests/unified/findOneAndReplace-collation.json#FindOneAndReplace when one document matches with collation returning the document after modification',
    COLLATION,
  ],
  [
    'source/crud/tests/unified/findOneAndUpdate-collation.json#FindOneAndUpdate when many documents match with collation returning the document before modification',
    COLLATION,
  ],
  ['source/crud/tests/unified/findOneAndUpdate-errorResponse.json#findOneAndUpdate document validation errInfo is accessible', VALIDATION],
  ['source/crud/tests/unified/findOneAndUpdate-let.json#findOneAndUpdate with let option', LET],
  [
    'source/crud/tests/unified/insertOne-dots_and_dollars.json#Inserting document with dollar-prefixed key in _id yields server-side error',
    DOLLAR_ID,
  ],
  ['source/crud/tests/unified/replaceOne-collation.json#ReplaceOne when one document matches with collation', COLLATION],
  ['source/crud/tests/unified/updateMany-collation.json#UpdateMany when many documents match with collation', COLLATION],
  ['source/crud/tests/unified/updateMany-let.json#updateMany with let option', LET],
  ['source/crud/tests/unified/updateOne-collation.json#UpdateOne when one document matches with collation', COLLATION],
  ['source/crud/tests/unified/updateOne-let.json#UpdateOne with let option', LET],
  ['source/crud/tests/unified/updateOne-pipeline.json#UpdateOne using pipelines', PIPELINE_ID],
  ['source/retryable-writes/tests/unified/aggregate-out-merge.json#aggregate with $merge does not set txnNumber', OUT_MERGE],
  ['source/retryable-writes/tests/unified/aggregate-out-merge.json#aggregate with $out does not set txnNumber', OUT_MERGE],
  ['source/retryable-writes/tests/unified/bulkWrite.json#All commands are retried', PER_STATEMENT],
  ['source/retryable-writes/tests/unified/bulkWrite.json#Both commands are retried after their first statement fails', PER_STATEMENT],
  ['source/retryable-writes/tests/unified/bulkWrite.json#First insertOne is never committed', PER_STATEMENT],
  [
    'source/sessions/tests/implicit-sessions-default-causal-consistency.json#afterClusterTime is not sent on retried read in implicit session when readConcern level is snapshot',
    SNAPSHOT_READ,
  ],
  ['source/sessions/tests/snapshot-sessions.json#Find operation with snapshot', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#Distinct operation with snapshot', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#Aggregate operation with snapshot', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#countDocuments operation with snapshot', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#Mixed operation with snapshot', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#Write commands with snapshot session do not affect snapshot reads', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#First snapshot read does not send atClusterTime', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#Find operation with snapshot and snapshot time', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#Distinct operation with snapshot and snapshot time', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#Aggregate operation with snapshot and snapshot time', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#countDocuments operation with snapshot and snapshot time', SNAPSHOT_READ],
  ['source/sessions/tests/snapshot-sessions.json#Mixed operation with snapshot and snapshotTime', SNAPSHOT_READ],
  ['source/transactions-convenient-api/tests/unified/callback-retry.json#callback succeeds after multiple connection errors', CONN_ERRORS],
  [
    'source/transactions-convenient-api/tests/unified/transaction-options.json#withTransaction explicit transaction options',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions-convenient-api/tests/unified/transaction-options.json#withTransaction explicit transaction options override client options',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions-convenient-api/tests/unified/transaction-options.json#withTransaction explicit transaction options override defaultTransactionOptions',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions-convenient-api/tests/unified/transaction-options.json#withTransaction inherits transaction options from client',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions-convenient-api/tests/unified/transaction-options.json#withTransaction inherits transaction options from defaultTransactionOptions',
    DRIVER_WTIMEOUT,
  ],
  ['source/transactions/tests/unified/delete.json#collection writeConcern ignored for delete', DRIVER_WTIMEOUT],
  [
    'source/transactions/tests/unified/error-labels-errorLabels.json#add RetryableWriteError and UnknownTransactionCommitResult labels to writeConcernError ShutdownInProgress',
    DRIVER_WTIMEOUT,
  ],
  ['source/transactions/tests/unified/error-labels.json#add UnknownTransactionCommitResult label to MaxTimeMSExpired', DRIVER_WTIMEOUT],
  [
    'source/transactions/tests/unified/error-labels.json#add UnknownTransactionCommitResult label to writeConcernError MaxTimeMSExpired',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/error-labels.json#add UnknownTransactionCommitResult label to writeConcernError WriteConcernTimeout',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/error-labels.json#add UnknownTransactionCommitResult label to writeConcernError WriteConcernTimeout with wtimeout',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/error-labels.json#omit UnknownTransactionCommitResult label from writeConcernError UnknownReplWriteConcern',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/error-labels.json#omit UnknownTransactionCommitResult label from writeConcernError UnsatisfiableWriteConcern',
    DRIVER_WTIMEOUT,
  ],
  ['source/transactions/tests/unified/findOneAndDelete.json#collection writeConcern ignored for findOneAndDelete', DRIVER_WTIMEOUT],
  ['source/transactions/tests/unified/findOneAndReplace.json#collection writeConcern ignored for findOneAndReplace', DRIVER_WTIMEOUT],
  ['source/transactions/tests/unified/findOneAndUpdate.json#collection writeConcern ignored for findOneAndUpdate', DRIVER_WTIMEOUT],
  ['source/transactions/tests/unified/insert.json#collection writeConcern ignored for insert', DRIVER_WTIMEOUT],
  [
    'source/transactions/tests/unified/retryable-abort-errorLabels.json#abortTransaction succeeds after WriteConcernError InterruptedAtShutdown',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/retryable-abort-errorLabels.json#abortTransaction succeeds after WriteConcernError InterruptedDueToReplStateChange',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/retryable-abort-errorLabels.json#abortTransaction succeeds after WriteConcernError PrimarySteppedDown',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/retryable-abort-errorLabels.json#abortTransaction succeeds after WriteConcernError ShutdownInProgress',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/retryable-abort.json#abortTransaction does not retry after WriteConcernError Interrupted',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/retryable-commit-errorLabels.json#commitTransaction succeeds after WriteConcernError InterruptedAtShutdown',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/retryable-commit-errorLabels.json#commitTransaction succeeds after WriteConcernError InterruptedDueToReplStateChange',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/retryable-commit-errorLabels.json#commitTransaction succeeds after WriteConcernError PrimarySteppedDown',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/retryable-commit-errorLabels.json#commitTransaction succeeds after WriteConcernError ShutdownInProgress',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/retryable-commit.json#commitTransaction is not retried after UnsatisfiableWriteConcern error',
    DRIVER_WTIMEOUT,
  ],
  [
    'source/transactions/tests/unified/run-command.json#run command with secondary read preference in client option and primary read preference in transaction options',
    NO_SECONDARY,
  ],
  ['source/transactions/tests/unified/transaction-options.json#client writeConcern ignored for bulk', DRIVER_WTIMEOUT],
  ['source/transactions/tests/unified/transaction-options.json#defaultTransactionOptions override client options', DRIVER_WTIMEOUT],
  ['source/transactions/tests/unified/transaction-options.json#readConcern local in defaultTransactionOptions', DRIVER_WTIMEOUT],
  ['source/transactions/tests/unified/transaction-options.json#readPreference inherited from client', NO_SECONDARY],
  ['source/transactions/tests/unified/transaction-options.json#startTransaction options override defaults', DRIVER_WTIMEOUT],
  ['source/transactions/tests/unified/transaction-options.json#transaction options inherited from client', CAUSAL],
  [
    'source/transactions/tests/unified/transaction-options.json#transaction options inherited from defaultTransactionOptions',
    DRIVER_WTIMEOUT,
  ],
  ['source/transactions/tests/unified/update.json#collections writeConcern ignored for update', DRIVER_WTIMEOUT],
  ['source/transactions/tests/unified/write-concern.json#abort with majority', DRIVER_WTIMEOUT],
  ['source/transactions/tests/unified/write-concern.json#commit with majority', DRIVER_WTIMEOUT],
]);

function gitIn(mirror: string, args: string[]): string {
  return execFileSync('git', [`--git-dir=${mirror}`, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function loadFiles(): { files: Map<string, Array<{ name: string; file: UnifiedFile }>>; missing: string | undefined } {
  const files = new Map<string, Array<{ name: string; file: UnifiedFile }>>();
  if (MIRROR === undefined || MIRROR === '') {
    return {
      files,
      missing:
        'DEBTKIT_SPECS_GIT_DIR is not set (CI and the root npm test do not fetch mongodb/specifications); run them with `npm run test:specs -w @debtkit/mongo-wire-test-server` (docs/testing.md)',
    };
  }
  const git = (args: string[]): string => gitIn(MIRROR, args);
  try {
    for (const directory of DIRECTORIES) {
      const names = git(['ls-tree', '--name-only', `${COMMIT}:${directory}`])
        .split('\n')
        .filter((name) => name.endsWith('.json'));
      files.set(
        directory,
        names.map((name) => ({
          name,
          file: BSON.EJSON.parse(git(['show', `${COMMIT}:${directory}/${name}`]), { relaxed: true }) as UnifiedFile,
        })),
      );
    }
    return { files, missing: undefined };
  } catch (error) {
    return {
      files,
      missing: `the specifications mirror ${MIRROR} at ${COMMIT} cannot be read (${(error as Error).message.split('\n')[0]}); set DEBTKIT_SPECS_GIT_DIR to a git directory of mongodb/specifications holding that commit`,
    };
  }
}

const { files, missing } = loadFiles();
const counts = new Map<string, { passed: number; failed: number; skipped: number }>();

/**
 * Ends every open transaction on the server, so none keeps its locks into the
 * next test: unified-test-format.md ("killAllSessions") asks for it at the
 * start and after each failed test; the Node driver's unified runner sends it
 * before every test, as this one does. A test that passes can leave one too:
 * an abortTransaction that a fail point failed leaves it open on the server.
 */
async function killAllSessions(client: MongoClient): Promise<void> {
  await client.db('admin').command({ killAllSessions: [] });
}

describe(`MongoDB unified spec tests through the driver (mongodb/specifications, pinned; ${MODE})`, function () {
  this.timeout(30_000);
  let server: WireServer;
  let internal: MongoClient;

  if (missing !== undefined) {
    it(`SPEC TESTS NOT RUN: ${missing}`);
    return;
  }

  before(async () => {
    server = await startWireServer();
    internal = new MongoClient(server.url, { serverSelectionTimeoutMS: 5000 });
    await internal.connect();
  });

  after(async () => {
    await internal?.close();
    await server?.stop();
    const lines = [...counts].map(
      ([directory, c]) => `      ${directory}: ${c.passed} passed, ${c.failed} failed (known gaps), ${c.skipped} skipped (requirements)`,
    );
    console.log(`    spec test counts (${MODE}):\n${lines.join('\n')}`);
  });

  for (const directory of DIRECTORIES) {
    const count = { passed: 0, failed: 0, skipped: 0 };
    counts.set(directory, count);
    describe(directory, () => {
      for (const { name, file } of files.get(directory) ?? []) {
        describe(name, () => {
          for (const test of file.tests) {
            it(test.description, async function () {
              const unmet = test.skipReason ?? unmetRequirement(file.runOnRequirements) ?? unmetRequirement(test.runOnRequirements);
              if (unmet !== undefined) {
                count.skipped += 1;
                this.test!.title += ` [skipped: ${unmet}]`;
                this.skip();
              }
              const gap = KNOWN_GAPS.get(`${directory}/${name}#${test.description}`) ?? KNOWN_GAPS.get(`${directory}/${name}`);
              if (NO_RESET) await killAllSessions(internal);
              else server.reset();
              const run = new UnifiedRun(server, internal);
              let failure: unknown;
              try {
                await run.setUp(file);
                await run.runOperations(test.operations);
                run.checkEvents(test.expectEvents);
                await run.checkOutcome(test.outcome);
              } catch (error) {
                failure = error;
              } finally {
                await run.close();
              }
              if (failure === undefined && gap !== undefined) {
                count.failed += 1;
                throw new Error(`listed in KNOWN_GAPS but passes now: remove it from the list (${gap})`);
              }
              if (failure !== undefined) {
                const error = failure;
                if (gap === undefined) {
                  count.failed += 1;
                  throw error instanceof Unsupported ? new Error(`runner does not support ${error.message}`) : error;
                }
                count.failed += 1;
                this.test!.title += ` [known gap: ${gap}]`;
                this.skip();
              }
              count.passed += 1;
            });
          }
        });
      }
    });
  }
});
