/**
 * What the server knows beyond its data: its topology (a one-node replica set
 * or a standalone), the cluster's logical clock, its settable parameters.
 */
import { Long, ObjectId, Timestamp, type Document } from 'mongodb';

/** MongoDB 7.0's wire version (transactions need >= 7, driver 7.x needs >= 9). */
export const MAX_WIRE_VERSION = 21;
export const SERVER_VERSION = '7.0.0';
export const SERVER_VERSION_ARRAY = [7, 0, 0, 0] as const;

/** The replica set member's electionId: constant, as one node that never steps down keeps one term. */
const ELECTION_ID = new ObjectId('7fffffff0000000000000001');
/** A signature the driver only gossips back (no auth, so no key validates it). */
const CLUSTER_TIME_SIGNATURE = { hash: Buffer.alloc(20), keyId: Long.fromNumber(0) };

export interface Topology {
  /** A standalone mongod: no setName; sessions yes, transactions and retryable writes no (code 20). */
  readonly standalone: boolean;
  readonly replicaSetName: string;
  /** `host:port` as the member advertises itself in hello (`me`, `hosts`, `primary`). */
  advertisedHost(): string;
}

export class ServerState {
  /** Settable with `setParameter` (admin db) and answered by `getParameter`. */
  readonly parameters: { transactionLifetimeLimitSeconds: number };
  #clusterSeconds = 0;
  #clusterIncrement = 0;

  constructor(
    readonly topology: Topology,
    readonly now: () => Date,
    transactionLifetimeLimitSeconds: number,
  ) {
    this.parameters = { transactionLifetimeLimitSeconds };
  }

  get replicaSet(): boolean {
    return !this.topology.standalone;
  }

  /** The cluster time now, advanced by one for a write (`tick`). Strictly increasing. */
  clusterTime(tick = false): Timestamp {
    const seconds = Math.max(Math.floor(this.now().getTime() / 1000), this.#clusterSeconds);
    if (seconds > this.#clusterSeconds) {
      this.#clusterSeconds = seconds;
      this.#clusterIncrement = 1;
    } else if (tick || this.#clusterIncrement === 0) this.#clusterIncrement += 1;
    return new Timestamp({ t: this.#clusterSeconds, i: this.#clusterIncrement });
  }

  /** The fields a replica set member adds to every reply, so the driver can gossip them and use causal consistency. */
  clusterTimeFields(operationTime: Timestamp): Document {
    return { $clusterTime: { clusterTime: this.clusterTime(), signature: CLUSTER_TIME_SIGNATURE }, operationTime };
  }

  /** hello / isMaster. No `topologyVersion`: without it the driver polls instead of streaming (awaitable hello). */
  hello(connectionId: number, maxMessageSizeBytes: number): Document {
    const reply: Document = {
      helloOk: true,
      ismaster: true,
      isWritablePrimary: true,
    };
    if (this.replicaSet) {
      const me = this.topology.advertisedHost();
      const optime = this.clusterTime();
      const lastWriteDate = new Date(optime.high * 1000);
      Object.assign(reply, {
        hosts: [me],
        setName: this.topology.replicaSetName,
        setVersion: 1,
        secondary: false,
        primary: me,
        me,
        electionId: ELECTION_ID,
        lastWrite: {
          opTime: { ts: optime, t: Long.fromNumber(1) },
          lastWriteDate,
          majorityOpTime: { ts: optime, t: Long.fromNumber(1) },
          majorityWriteDate: lastWriteDate,
        },
      });
    }
    Object.assign(reply, {
      maxBsonObjectSize: 16_777_216,
      maxMessageSizeBytes,
      maxWriteBatchSize: 100_000,
      localTime: this.now(),
      logicalSessionTimeoutMinutes: 30,
      connectionId,
      minWireVersion: 0,
      maxWireVersion: MAX_WIRE_VERSION,
      readOnly: false,
      ok: 1,
    });
    return reply;
  }
}
