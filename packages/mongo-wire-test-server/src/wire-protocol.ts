/**
 * MongoDB wire-protocol framing: just the opcodes driver 7.x uses against a
 * server that advertises no compression.
 *
 * - OP_QUERY (2004) only carries the legacy `ismaster`/`hello` handshake to
 *   `admin.$cmd`; it is answered with OP_REPLY (1).
 * - OP_MSG (2013) carries every other command: one kind-0 section (the command
 *   body) and any number of kind-1 document sequences (e.g. `documents` of an
 *   insert), optionally followed by a CRC-32C checksum (flag bit 0).
 *
 * Reference: https://github.com/mongodb/specifications/blob/master/source/message/OP_MSG.md
 */
import { BSON, type Document } from 'mongodb';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

/** Advertised in hello; a larger frame is a protocol error. */
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000;

const HEADER_SIZE = 16;

export const OpMsgFlag = {
  checksumPresent: 1 << 0,
  moreToCome: 1 << 1,
  exhaustAllowed: 1 << 16,
} as const;

/** Bits 0-15 are "required": a receiver must fail on one it does not know. */
const KNOWN_REQUIRED_BITS = OpMsgFlag.checksumPresent | OpMsgFlag.moreToCome;
const REQUIRED_BITS_MASK = 0xffff;

export interface MessageHeader {
  readonly messageLength: number;
  readonly requestId: number;
  readonly responseTo: number;
  readonly opCode: number;
}

export interface OpQueryRequest {
  readonly opCode: typeof OP_QUERY;
  readonly header: MessageHeader;
  readonly flags: number;
  readonly fullCollectionName: string;
  readonly query: Document;
}

export interface DocumentSequence {
  readonly identifier: string;
  readonly documents: Document[];
}

export interface OpMsgRequest {
  readonly opCode: typeof OP_MSG;
  readonly header: MessageHeader;
  readonly flagBits: number;
  readonly body: Document;
  readonly sequences: readonly DocumentSequence[];
}

export type WireRequest = OpQueryRequest | OpMsgRequest;

/** The peer broke the protocol: the only safe answer is closing the connection. */
export class WireProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireProtocolError';
  }
}

/**
 * Cuts a TCP byte stream into whole messages. Chunks are kept in a list and
 * joined once per message, so a 48 MB frame arriving in 64 KB chunks is not
 * re-copied on every chunk.
 */
export class MessageFramer {
  #chunks: Buffer[] = [];
  #length = 0;

  /** Adds received bytes; returns the messages completed by them, in order. */
  push(chunk: Buffer): Buffer[] {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    const messages: Buffer[] = [];
    while (this.#length >= 4) {
      const head = this.#contiguous(4);
      const size = head.readInt32LE(0);
      if (size < HEADER_SIZE || size > MAX_MESSAGE_SIZE_BYTES) {
        throw new WireProtocolError(`invalid message length ${size}`);
      }
      if (this.#length < size) break;
      const all = this.#contiguous(this.#length);
      messages.push(all.subarray(0, size));
      const rest = all.subarray(size);
      this.#chunks = rest.length > 0 ? [rest] : [];
      this.#length = rest.length;
    }
    return messages;
  }

  /** A buffer starting at the stream position holding at least `bytes` bytes. */
  #contiguous(bytes: number): Buffer {
    const first = this.#chunks[0];
    if (first !== undefined && first.length >= bytes) return first;
    const joined = Buffer.concat(this.#chunks, this.#length);
    this.#chunks = [joined];
    return joined;
  }
}

export function readHeader(message: Buffer): MessageHeader {
  return {
    messageLength: message.readInt32LE(0),
    requestId: message.readInt32LE(4),
    responseTo: message.readInt32LE(8),
    opCode: message.readInt32LE(12),
  };
}

/** Decodes one whole message (as cut by {@link MessageFramer}). */
export function decodeRequest(message: Buffer): WireRequest {
  const header = readHeader(message);
  switch (header.opCode) {
    case OP_QUERY:
      return decodeOpQuery(message, header);
    case OP_MSG:
      return decodeOpMsg(message, header);
    case OP_COMPRESSED:
      throw new WireProtocolError('OP_COMPRESSED received although no compressor was advertised');
    default:
      throw new WireProtocolError(`unsupported opCode ${header.opCode}`);
  }
}

function decodeOpQuery(message: Buffer, header: MessageHeader): OpQueryRequest {
  const flags = message.readInt32LE(HEADER_SIZE);
  const nameStart = HEADER_SIZE + 4;
  const nameEnd = message.indexOf(0, nameStart);
  if (nameEnd < 0) throw new WireProtocolError('OP_QUERY: unterminated fullCollectionName');
  const fullCollectionName = message.toString('utf8', nameStart, nameEnd);
  // numberToSkip and numberToReturn (8 bytes) mean nothing for a command.
  const queryStart = nameEnd + 1 + 8;
  const query = readDocument(message, queryStart, message.length).document;
  return { opCode: OP_QUERY, header, flags, fullCollectionName, query };
}

function decodeOpMsg(message: Buffer, header: MessageHeader): OpMsgRequest {
  const flagBits = message.readUInt32LE(HEADER_SIZE);
  const unknownRequired = flagBits & REQUIRED_BITS_MASK & ~KNOWN_REQUIRED_BITS;
  if (unknownRequired !== 0) {
    throw new WireProtocolError(`OP_MSG: unknown required flag bits 0x${unknownRequired.toString(16)}`);
  }
  let end = message.length;
  if ((flagBits & OpMsgFlag.checksumPresent) !== 0) {
    end -= 4;
    if (end < HEADER_SIZE + 4) throw new WireProtocolError('OP_MSG: too short for its checksum');
    const expected = message.readUInt32LE(end);
    const actual = crc32c(message.subarray(0, end));
    if (expected !== actual) throw new WireProtocolError('OP_MSG: checksum mismatch');
  }

  let body: Document | undefined;
  const sequences: DocumentSequence[] = [];
  let offset = HEADER_SIZE + 4;
  while (offset < end) {
    const kind = message[offset];
    offset += 1;
    if (kind === 0) {
      if (body !== undefined) throw new WireProtocolError('OP_MSG: more than one kind-0 section');
      const read = readDocument(message, offset, end);
      body = read.document;
      offset = read.next;
    } else if (kind === 1) {
      if (offset + 4 > end) throw new WireProtocolError('OP_MSG: truncated document sequence');
      const sectionEnd = offset + message.readInt32LE(offset);
      if (sectionEnd > end || sectionEnd < offset + 5) {
        throw new WireProtocolError('OP_MSG: document sequence size out of bounds');
      }
      const nameEnd = message.indexOf(0, offset + 4);
      if (nameEnd < 0 || nameEnd >= sectionEnd) {
        throw new WireProtocolError('OP_MSG: unterminated document sequence identifier');
      }
      const identifier = message.toString('utf8', offset + 4, nameEnd);
      const documents: Document[] = [];
      let position = nameEnd + 1;
      while (position < sectionEnd) {
        const read = readDocument(message, position, sectionEnd);
        documents.push(read.document);
        position = read.next;
      }
      sequences.push({ identifier, documents });
      offset = sectionEnd;
    } else {
      throw new WireProtocolError(`OP_MSG: unknown section kind ${String(kind)}`);
    }
  }
  if (body === undefined) throw new WireProtocolError('OP_MSG: no kind-0 section');
  return { opCode: OP_MSG, header, flagBits, body, sequences };
}

function readDocument(buffer: Buffer, offset: number, limit: number): { document: Document; next: number } {
  if (offset + 5 > limit) throw new WireProtocolError('truncated BSON document');
  const size = buffer.readInt32LE(offset);
  if (size < 5 || offset + size > limit) throw new WireProtocolError('BSON document size out of bounds');
  try {
    return { document: BSON.deserialize(buffer.subarray(offset, offset + size)), next: offset + size };
  } catch (error) {
    throw new WireProtocolError(`invalid BSON: ${(error as Error).message}`);
  }
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const buffer = Buffer.alloc(HEADER_SIZE);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(requestId, 4);
  buffer.writeInt32LE(responseTo, 8);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

export interface OpMsgParts {
  readonly requestId: number;
  readonly responseTo: number;
  readonly body: Document;
  readonly sequences?: readonly DocumentSequence[];
  /** Only flag bit 1 (moreToCome) and 16 (exhaustAllowed) are honoured; checksumPresent follows `checksum`. */
  readonly flagBits?: number;
  readonly checksum?: boolean;
}

/**
 * Encodes an OP_MSG. The server answers without sequences or checksum; the
 * other parts exist so tests can speak to the server the way a driver may.
 */
export function encodeOpMsg(parts: OpMsgParts): Buffer {
  const checksum = parts.checksum === true;
  const flagBits = ((parts.flagBits ?? 0) & ~OpMsgFlag.checksumPresent) | (checksum ? OpMsgFlag.checksumPresent : 0);
  const sections: Buffer[] = [Buffer.from([0]), Buffer.from(BSON.serialize(parts.body))];
  for (const sequence of parts.sequences ?? []) {
    const identifier = Buffer.from(`${sequence.identifier}\0`, 'utf8');
    const documents = sequence.documents.map((document) => Buffer.from(BSON.serialize(document)));
    const size = 4 + identifier.length + documents.reduce((total, document) => total + document.length, 0);
    const sizeField = Buffer.alloc(4);
    sizeField.writeInt32LE(size, 0);
    sections.push(Buffer.from([1]), sizeField, identifier, ...documents);
  }
  const flags = Buffer.alloc(4);
  flags.writeUInt32LE(flagBits >>> 0, 0);
  const payloadLength = sections.reduce((total, section) => total + section.length, 0);
  const length = HEADER_SIZE + 4 + payloadLength + (checksum ? 4 : 0);
  const withoutChecksum = Buffer.concat([header(length, parts.requestId, parts.responseTo, OP_MSG), flags, ...sections]);
  if (!checksum) return withoutChecksum;
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32c(withoutChecksum), 0);
  return Buffer.concat([withoutChecksum, crc]);
}

/** Encodes the OP_REPLY that answers an OP_QUERY command: one document, no cursor. */
export function encodeOpReply(requestId: number, responseTo: number, document: Document): Buffer {
  const body = Buffer.from(BSON.serialize(document));
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(0, 0); // responseFlags
  fields.writeBigInt64LE(0n, 4); // cursorID
  fields.writeInt32LE(0, 12); // startingFrom
  fields.writeInt32LE(1, 16); // numberReturned
  const length = HEADER_SIZE + fields.length + body.length;
  return Buffer.concat([header(length, requestId, responseTo, OP_REPLY), fields, body]);
}

/** Decodes an OP_MSG reply's body (used by tests that speak raw wire protocol). */
export function decodeReplyBody(message: Buffer): Document {
  const request = decodeRequest(message);
  if (request.opCode !== OP_MSG) throw new WireProtocolError('expected an OP_MSG reply');
  return request.body;
}

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32C (Castagnoli), the OP_MSG checksum. crc32c("123456789") = 0xe3069283. */
export function crc32c(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC32C_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
