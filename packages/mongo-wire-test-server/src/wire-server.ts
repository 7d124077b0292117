/**
 * A MongoDB wire-protocol test server: enough of a one-node replica set
 * (MongoDB 7.0, wire version 21) for the real `mongodb` driver (7.x) to run
 * debtkit's mongo adapter on machines where no MongoDB can be installed
 * (docs/decisions/mongodb.md). Data lives in memory.
 *
 *   const server = await startWireServer();            // 127.0.0.1, free port, replica set `rs0`
 *   const client = new MongoClient(server.url);
 *   ...
 *   await server.stop();                               // connections fail now
 *   await server.restart();                            // same port, data kept
 *
 * Protocol: the legacy OP_QUERY handshake (answered with OP_REPLY) and OP_MSG
 * for everything else, incl. kind-1 document sequences, checksums and
 * moreToCome (w: 0 writes get no reply). No compression, TLS or auth is
 * advertised, so the driver uses none.
 *
 * Topology: hello describes the primary of replica set `replicaSetName`
 * whose one member is `advertisedHost` (default: the URL's host and port),
 * so the driver uses sessions, transactions and retryable writes; every reply
 * carries `$clusterTime` and `operationTime`. `standalone: true` describes a
 * standalone instead: then any command carrying `txnNumber`,
 * `startTransaction` or `autocommit`, and commitTransaction/abortTransaction,
 * answers what a real standalone answers (IllegalOperation, 20).
 *
 * Commands: hello/isMaster, ping, buildInfo, getParameter, setParameter
 * (transactionLifetimeLimitSeconds), endSessions, killSessions,
 * killAllSessions, killAllSessionsByPattern, configureFailPoint, listDatabases, create, drop,
 * dropDatabase, createIndexes, dropIndexes, listIndexes, listCollections,
 * find, getMore, killCursors, aggregate, count, distinct, insert, update,
 * delete, findAndModify, commitTransaction, abortTransaction. Query,
 * projection, sort, update operators and pipelines are mingo's. Any other
 * command answers CommandNotFound (59), so a gap shows up as a loud failure.
 * writeConcern, readConcern, $clusterTime, maxTimeMS and hint are accepted
 * and ignored.
 *
 * Transactions and retryable writes: see transactions.ts and sessions.ts
 * (snapshot isolation, WriteConflict 112 + TransientTransactionError for the
 * second writer, NoSuchTransaction 251, lifetime limit, atomic commit, a
 * retried commit answering the same outcome, a retried write answered once).
 *
 * Concurrency: each command runs to completion synchronously, so every
 * command is atomic with respect to every other one (findAndModify-based
 * compare-and-set behaves as on a real server). A write outside a transaction
 * that would touch a document a transaction holds waits until it ends (or
 * until its maxTimeMS runs out: MaxTimeMSExpired, 50).
 *
 * Simplifications: unique indexes do not expand arrays (multikey); cursors
 * have no idle timeout (they end when exhausted, killed, or on reset()); the
 * `commands` log keeps the most recent 10,000 names.
 */
import net from 'node:net';
import type { Document } from 'mongodb';
import { commandName, isBlocked, runCommand, type BlockedCommand } from './command-dispatch.js';
import type { CommandContext } from './command-context.js';
import { CommandError } from './command-error.js';
import { CursorRegistry } from './cursor-registry.js';
import { MemoryStore } from './memory-store.js';
import { ServerState } from './server-state.js';
import { SessionRegistry } from './sessions.js';
import { TransactionRegistry } from './transactions.js';
import { FailPoints, codeNameOf, labelsFor, writeConcernLabelsFor } from './fail-points.js';
import { RETRYABLE_WRITE_COMMANDS } from './sessions.js';
import { isPlainDocument } from './document-update.js';
import {
  MessageFramer,
  OP_MSG,
  OpMsgFlag,
  WireProtocolError,
  decodeRequest,
  encodeOpMsg,
  encodeOpReply,
  type OpMsgRequest,
  type OpQueryRequest,
} from './wire-protocol.js';

export interface WireServerOptions {
  /** 0 (default): a free port chosen by the OS. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** How often the TTL monitor runs, as MongoDB's `ttlMonitorSleepSecs` (default 60 s); 0: only `runTtlMonitor()`. */
  readonly ttlMonitorIntervalMs?: number;
  /** The server's clock, for TTL expiry, the cluster time and transaction lifetimes (default: the system clock). */
  readonly now?: () => Date;
  /**
   * A standalone mongod instead of a one-node replica set (default false): no
   * `setName` in hello, so the driver uses no transactions and no retryable
   * writes, and a command carrying them answers IllegalOperation (20).
   */
  readonly standalone?: boolean;
  /** The replica set's name, hello's `setName` (default `rs0`). */
  readonly replicaSetName?: string;
  /**
   * `host:port` the member advertises in hello (`me`, `hosts`, `primary`), as
   * a replica set member's configured host; the driver connects to it after
   * discovery. Default: the URL's host and the listening port (also after
   * restart()). Set it to a proxy's address when clients reach the server
   * through one; `directConnection=true` clients ignore it.
   */
  readonly advertisedHost?: string;
  /** mongod's `transactionLifetimeLimitSeconds` (default 60); `setParameter` changes it at run time. */
  readonly transactionLifetimeLimitSeconds?: number;
}

export interface WireServer {
  /** `mongodb://127.0.0.1:PORT/` */
  readonly url: string;
  readonly port: number;
  /** `host:port` the member advertises in hello (the replica set's one host). */
  readonly advertisedHost: string;
  /** The replica set's name; undefined for a standalone. */
  readonly replicaSetName: string | undefined;
  /** Closes the listener and destroys every live connection. */
  stop(): Promise<void>;
  /** Listens again on the same port (stopping first if running); data is kept. */
  restart(): Promise<void>;
  /** Drops all databases, open cursors, sessions and transactions, and turns the fail point off. */
  reset(): void;
  /** Names of the commands received, oldest first (for tests; clear it with `length = 0`). */
  readonly commands: string[];
  /** One pass of the TTL monitor now (tests need not wait for it); answers how many documents it removed. */
  runTtlMonitor(): number;
  /**
   * Aborts every transaction older than transactionLifetimeLimitSeconds at the
   * server's clock, releasing its locks; answers how many. The server does it
   * every second and before each command; tests with an injected clock call it.
   */
  expireTransactions(): number;
  /** The current limit (option, or `setParameter`). */
  readonly transactionLifetimeLimitSeconds: number;
  /**
   * Hold the next command `match` accepts: it arrives, but runs (atomically, as
   * every command) only at `release()`. For tests that need a write to land
   * late without sleeping, e.g. an insert overtaken by a later one. The driver
   * sends one command at a time per connection, so nothing else on that
   * connection waits behind it; other connections go on.
   */
  holdNext(match: (command: CommandSummary) => boolean): CommandHold;
}

/** What `holdNext` matches on. */
export interface CommandSummary {
  readonly db: string;
  readonly name: string;
  readonly body: Document;
}

export interface CommandHold {
  /** Resolves when the matching command has arrived and is being held. */
  readonly held: Promise<void>;
  /** Run the held command and send its reply (or, if none arrived yet, stop waiting for one). Idempotent. */
  release(): void;
}

interface PendingHold {
  readonly match: (command: CommandSummary) => boolean;
  readonly arrived: () => void;
  run: (() => void) | undefined;
  released: boolean;
}

const COMMAND_LOG_LIMIT = 10_000;

export async function startWireServer(options: WireServerOptions = {}): Promise<WireServer> {
  const lifetime = options.transactionLifetimeLimitSeconds ?? 60;
  if (!Number.isInteger(lifetime) || lifetime < 1)
    throw new RangeError(`transactionLifetimeLimitSeconds must be an integer >= 1, got ${lifetime}`);
  if (options.advertisedHost !== undefined && !/^[^\s/]+:\d{1,5}$/.test(options.advertisedHost)) {
    throw new RangeError(`advertisedHost must be host:port, got "${options.advertisedHost}"`);
  }
  const server = new MongoWireServer(
    options.host ?? '127.0.0.1',
    options.now ?? (() => new Date()),
    options.ttlMonitorIntervalMs ?? 60_000,
    {
      standalone: options.standalone ?? false,
      replicaSetName: options.replicaSetName ?? 'rs0',
      advertisedHost: options.advertisedHost,
      lifetime,
    },
  );
  await server.listen(options.port ?? 0);
  return server;
}

interface TopologyOptions {
  readonly standalone: boolean;
  readonly replicaSetName: string;
  readonly advertisedHost: string | undefined;
  readonly lifetime: number;
}

class MongoWireServer implements WireServer {
  readonly commands: string[] = [];
  readonly #holds: PendingHold[] = [];
  readonly #host: string;
  readonly #store = new MemoryStore();
  readonly #cursors = new CursorRegistry();
  readonly #sockets = new Set<net.Socket>();
  #listener: net.Server | undefined;
  #port = 0;
  #nextConnectionId = 1;
  #nextRequestId = 1;

  readonly #now: () => Date;
  readonly #ttlMonitorIntervalMs: number;
  #ttlMonitor: NodeJS.Timeout | undefined;
  readonly #state: ServerState;
  readonly #sessions = new SessionRegistry();
  readonly #transactions = new TransactionRegistry(this.#store);
  #transactionReaper: NodeJS.Timeout | undefined;
  readonly #failPoints = new FailPoints();
  readonly #appNames = new WeakMap<CommandContext, string>();

  constructor(host: string, now: () => Date, ttlMonitorIntervalMs: number, topology: TopologyOptions) {
    this.#host = host;
    this.#now = now;
    this.#ttlMonitorIntervalMs = ttlMonitorIntervalMs;
    this.#state = new ServerState(
      {
        standalone: topology.standalone,
        replicaSetName: topology.replicaSetName,
        advertisedHost: () => topology.advertisedHost ?? `${urlHost(this.#host)}:${this.#port}`,
      },
      now,
      topology.lifetime,
    );
  }

  get advertisedHost(): string {
    return this.#state.topology.advertisedHost();
  }

  get replicaSetName(): string | undefined {
    return this.#state.replicaSet ? this.#state.topology.replicaSetName : undefined;
  }

  runTtlMonitor(): number {
    return this.#store.expire(this.#now());
  }

  expireTransactions(): number {
    return this.#transactions.expire(this.#now().getTime(), this.#state.parameters.transactionLifetimeLimitSeconds * 1000);
  }

  get transactionLifetimeLimitSeconds(): number {
    return this.#state.parameters.transactionLifetimeLimitSeconds;
  }

  holdNext(match: (command: CommandSummary) => boolean): CommandHold {
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    const hold: PendingHold = { match, arrived, run: undefined, released: false };
    this.#holds.push(hold);
    return {
      held,
      release: () => {
        if (hold.released) return;
        hold.released = true;
        const waiting = this.#holds.indexOf(hold);
        if (waiting >= 0) this.#holds.splice(waiting, 1);
        hold.run?.();
      },
    };
  }

  /** The waiting hold that takes this command, removed from the waiting list. */
  #takeHold(command: CommandSummary): PendingHold | undefined {
    const index = this.#holds.findIndex((hold) => hold.match(command));
    return index < 0 ? undefined : this.#holds.splice(index, 1)[0];
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `mongodb://${urlHost(this.#host)}:${this.#port}/`;
  }

  async listen(port: number): Promise<void> {
    const listener = net.createServer((socket) => this.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, this.#host, () => {
        listener.off('error', reject);
        resolve();
      });
    });
    this.#listener = listener;
    this.#port = (listener.address() as net.AddressInfo).port;
    if (this.#ttlMonitorIntervalMs > 0 && this.#ttlMonitor === undefined) {
      this.#ttlMonitor = setInterval(() => this.runTtlMonitor(), this.#ttlMonitorIntervalMs);
      this.#ttlMonitor.unref();
    }
    // As mongod's transaction reaper: abandoned transactions end within about a second of their limit.
    if (!this.#state.topology.standalone && this.#transactionReaper === undefined) {
      this.#transactionReaper = setInterval(() => this.expireTransactions(), 1000);
      this.#transactionReaper.unref();
    }
  }

  async stop(): Promise<void> {
    const listener = this.#listener;
    if (listener === undefined) return;
    this.#listener = undefined;
    clearInterval(this.#ttlMonitor);
    this.#ttlMonitor = undefined;
    clearInterval(this.#transactionReaper);
    this.#transactionReaper = undefined;
    const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    await closed;
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.listen(this.#port);
  }

  reset(): void {
    this.#transactions.clear();
    this.#failPoints.clear();
    this.#store.clear();
    this.#cursors.clear();
    this.#sessions.clear();
  }

  #accept(socket: net.Socket): void {
    this.#sockets.add(socket);
    socket.setNoDelay(true);
    const context: CommandContext = {
      store: this.#store,
      cursors: this.#cursors,
      connectionId: this.#nextConnectionId++,
      server: this.#state,
      sessions: this.#sessions,
      transactions: this.#transactions,
      failPoints: this.#failPoints,
    };
    const framer = new MessageFramer();
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const message of framer.push(chunk)) {
          if (socket.destroyed) return;
          this.#handle(socket, context, message);
        }
      } catch (error) {
        // A framing or decoding error leaves the stream unusable; a real server drops the connection too.
        socket.destroy();
        // Anything else is a bug of this server: made visible without taking the test process down.
        if (!(error instanceof WireProtocolError))
          process.emitWarning(`mongo wire test server: ${String((error as Error).stack ?? error)}`);
      }
    });
    // A client that goes away (ECONNRESET) is normal; 'close' does the bookkeeping.
    socket.on('error', () => undefined);
    socket.on('close', () => this.#sockets.delete(socket));
  }

  #handle(socket: net.Socket, context: CommandContext, message: Buffer): void {
    const request = decodeRequest(message);
    if (request.opCode === OP_MSG) this.#handleOpMsg(socket, context, request);
    else this.#handleOpQuery(socket, context, request);
  }

  #handleOpQuery(socket: net.Socket, context: CommandContext, request: OpQueryRequest): void {
    const wrapped = request.query['$query'];
    const body: Document = typeof wrapped === 'object' && wrapped !== null ? (wrapped as Document) : request.query;
    const db = request.fullCollectionName.endsWith('.$cmd')
      ? request.fullCollectionName.slice(0, -'.$cmd'.length)
      : request.fullCollectionName;
    const reply = this.#execute(context, db, body, true);
    if (isBlocked(reply)) throw new Error('a handshake command cannot block');
    socket.write(this.#encode((reply) => encodeOpReply(this.#nextRequestId++, request.header.requestId, reply), reply));
  }

  #handleOpMsg(socket: net.Socket, context: CommandContext, request: OpMsgRequest): void {
    const body: Document = { ...request.body };
    for (const sequence of request.sequences) {
      if (sequence.identifier in body) {
        throw new WireProtocolError(`OP_MSG: '${sequence.identifier}' is both in the body and a document sequence`);
      }
      body[sequence.identifier] = sequence.documents;
    }
    const db = typeof body['$db'] === 'string' ? body['$db'] : 'admin';
    const name = commandName(body);
    const send = (reply: Document): void => {
      // moreToCome from a client (w: 0 writes) means it reads no reply.
      if ((request.flagBits & OpMsgFlag.moreToCome) !== 0 || socket.destroyed) return;
      socket.write(
        this.#encode(
          (reply) => encodeOpMsg({ requestId: this.#nextRequestId++, responseTo: request.header.requestId, body: reply }),
          reply,
        ),
      );
    };
    let logged = false;
    let timedOut = false;
    let maxTimeTimer: NodeJS.Timeout | undefined;
    const respond = (writeConcernError?: Document, labels?: string[]): void => {
      const reply = this.#execute(context, db, body, false, logged);
      logged = true;
      // A write waiting on a document a transaction holds runs again once a transaction ends,
      // or fails with MaxTimeMSExpired (50) when its maxTimeMS runs out first, as on mongod.
      if (isBlocked(reply)) {
        const maxTimeMS = body['maxTimeMS'];
        if (maxTimeTimer === undefined && typeof maxTimeMS === 'number' && maxTimeMS > 0) {
          maxTimeTimer = setTimeout(() => {
            timedOut = true;
            const expired = new CommandError('MaxTimeMSExpired', 'operation exceeded time limit').toReply();
            send(this.#state.replicaSet ? { ...expired, ...this.#state.clusterTimeFields(this.#state.clusterTime()) } : expired);
          }, maxTimeMS);
        }
        void reply.blocked.then(() => {
          if (!socket.destroyed && !timedOut) respond(writeConcernError, labels);
        });
        return;
      }
      clearTimeout(maxTimeTimer);
      if (writeConcernError === undefined || reply['ok'] !== 1) return send(reply);
      const errorLabels = writeConcernLabelsFor(
        typeof writeConcernError['code'] === 'number' ? writeConcernError['code'] : 0,
        body,
        name,
        labels,
      );
      send({ ...reply, writeConcernError, ...(errorLabels.length > 0 ? { errorLabels } : {}) });
    };
    // The failCommand fail point (fail-points.ts), checked when the command would run.
    const start = (): void => {
      const effect = this.#failPoints.fire(name, this.#appNames.get(context));
      if (effect === undefined) return this.#transactionalWrite(socket, context, db, body, name, respond, send);
      this.#log(name);
      logged = true;
      const act = (): void => {
        if (effect.closeConnection) {
          socket.destroy();
          return;
        }
        if (effect.errorCode === undefined) return respond(effect.writeConcernError, effect.errorLabels);
        const errorLabels = labelsFor(effect.errorCode, body, name, effect.errorLabels);
        const failed: Document = { ok: 0, errmsg: "Failing command via 'failCommand' failpoint", code: effect.errorCode };
        const codeName = codeNameOf(effect.errorCode);
        if (codeName !== undefined) failed['codeName'] = codeName;
        if (errorLabels.length > 0) failed['errorLabels'] = errorLabels;
        send(this.#state.replicaSet ? { ...failed, ...this.#state.clusterTimeFields(this.#state.clusterTime()) } : failed);
      };
      // blockConnection holds this connection only: the timer lets every other connection go on.
      if (effect.blockTimeMS === undefined) act();
      else setTimeout(act, effect.blockTimeMS);
    };
    const hold = this.#holds.length === 0 ? undefined : this.#takeHold({ db, name, body });
    if (hold === undefined) return start();
    // As on a real server, a command that arrived runs even if its connection has closed meanwhile.
    hold.run = start;
    hold.arrived();
  }

  /** onPrimaryTransactionalWrite: a retryable write whose connection closes after (or, with a code, instead of) applying it. */
  #transactionalWrite(
    socket: net.Socket,
    context: CommandContext,
    db: string,
    body: Document,
    name: string,
    respond: () => void,
    send: (reply: Document) => void,
  ): void {
    const retryable = body['txnNumber'] !== undefined && body['autocommit'] === undefined && RETRYABLE_WRITE_COMMANDS.has(name);
    const effect = retryable && this.#state.replicaSet ? this.#failPoints.fireTransactionalWrite() : undefined;
    if (effect === undefined) return respond();
    if (effect.failBeforeCommitExceptionCode === undefined) {
      // Applied (and recorded for the retry), then the reply is lost with the connection.
      const reply = this.#execute(context, db, body, false);
      if (effect.closeConnection || isBlocked(reply)) socket.destroy();
      else send(reply);
      return;
    }
    this.#log(name);
    if (effect.closeConnection) socket.destroy();
    else send({ ok: 0, errmsg: 'onPrimaryTransactionalWrite fail point', code: effect.failBeforeCommitExceptionCode });
  }

  #log(name: string): void {
    this.commands.push(name);
    if (this.commands.length > COMMAND_LOG_LIMIT) this.commands.splice(0, this.commands.length - COMMAND_LOG_LIMIT);
  }

  #execute(context: CommandContext, db: string, body: Document, legacy: boolean, logged = false): Document | BlockedCommand {
    const name = commandName(body);
    if (!logged) this.#log(name);
    // The handshake's client metadata names the application (failCommand's appName matches it).
    const client = body['client'];
    if ((name === 'hello' || name === 'isMaster' || name === 'ismaster') && isPlainDocument(client)) {
      const application = client['application'];
      if (isPlainDocument(application) && typeof application['name'] === 'string') this.#appNames.set(context, application['name']);
    }
    return runCommand(context, { db, body, legacy });
  }

  /** A reply that cannot be serialised (e.g. over the BSON size limit) becomes an error reply. */
  #encode(encode: (reply: Document) => Buffer, reply: Document): Buffer {
    try {
      return encode(reply);
    } catch (error) {
      return encode(new CommandError('InternalError', `reply could not be encoded: ${(error as Error).message}`).toReply());
    }
  }
}

/** The host as it appears in a URL: wildcard listeners are reached through loopback; IPv6 is bracketed. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
