/**
 * docs/decisions/api-conventions.md: authentication before the body, and request `Content-Encoding`
 * (identity, gzip, deflate, br; the 1 MiB limit on the decoded size). No
 * decoding failure is ever a 500 or an error log line.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { connect } from 'node:net';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'chai';
import { Harness, harness } from './support/http-harness.js';

const JSON_BODY = Buffer.from(JSON.stringify({ payload: 'packed' }));

/** Serve the harness's app on an ephemeral port, let `send` write to a raw socket, and answer all it received once the server closed the socket. */
const rawExchange = async (h: Harness, send: (socket: Socket) => void | Promise<void>): Promise<string> => {
  const server = createServer(h.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await send(socket);
    await closed;
    return received;
  } finally {
    server.close();
  }
};

describe('request bodies: authentication first, content codings (docs/decisions/api-conventions.md)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });

  const post = (encoding: string | undefined, body: Buffer, auth = true) => {
    let req = h.request.post('/api/ping').set('Content-Type', 'application/json');
    if (auth) req = req.set(h.auth);
    if (encoding !== undefined) req = req.set('Content-Encoding', encoding);
    // The bytes as they are: superagent would otherwise serialise a Buffer as JSON.
    return req.serialize((b: Buffer) => b as unknown as string).send(body);
  };

  const expectNoErrorLogged = (): void => {
    expect(
      h.log.lines.filter((l) => l.level >= 50),
      h.log.text,
    ).to.deep.equal([]);
  };

  for (const [encoding, encode] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['identity', (b: Buffer) => b],
    ['GZip', gzipSync],
  ] as const) {
    it(`decodes a ${encoding} body`, async () => {
      const res = await post(encoding, encode(JSON_BODY));
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ payload: 'packed' });
    });
  }

  for (const [what, encoding, body] of [
    ['garbage declared as gzip', 'gzip', Buffer.from('xx')],
    ['garbage declared as deflate', 'deflate', Buffer.from('xx')],
    ['garbage declared as br', 'br', Buffer.from('not brotli at all')],
    ['a truncated gzip body', 'gzip', gzipSync(JSON_BODY).subarray(0, 12)],
  ] as const) {
    it(`400 validation_error for ${what}, and no error log`, async () => {
      const res = await post(encoding, body);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error.code).to.equal('validation_error');
      expect(res.body.error.message).to.equal(`The request body is not valid ${encoding} data`);
      expectNoErrorLogged();
    });
  }

  it('a body that decodes to something other than JSON is a 400 about JSON', async () => {
    const res = await post('gzip', gzipSync(Buffer.from('{bad')));
    expect(res.status).to.equal(400);
    expect(res.body.error.message).to.equal('The request body is not valid JSON');
  });

  for (const encoding of ['compress', 'zstd', 'gzip, br', 'x-gzip']) {
    it(`415 unsupported_media_type for Content-Encoding: ${encoding}`, async () => {
      const res = await post(encoding, gzipSync(JSON_BODY));
      expect(res.status).to.equal(415);
      expect(res.body.error).to.deep.include({
        code: 'unsupported_media_type',
        message: 'Content-Encoding must be one of identity, gzip, deflate, br',
      });
    });
  }

  it('413 for a small gzip body that inflates beyond 1 MiB (the limit is on the decoded size)', async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ payload: ' '.repeat(8 * 1024 * 1024) })));
    expect(bomb.length).to.be.below(64 * 1024);
    const res = await post('gzip', bomb);
    expect(res.status).to.equal(413);
    expect(res.body.error.code).to.equal('payload_too_large');
    expectNoErrorLogged();
  });

  it('accepts a body that starts with a UTF-8 byte order mark', async () => {
    const res = await post(undefined, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"payload":"bom"}')]));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ payload: 'bom' });
  });

  describe('a body that arrives with its headers and one that is still arriving read the same', () => {
    /** One POST over a raw socket: the headers, then the body in `parts` (each after the previous is in), then the response text. */
    const rawPost = (parts: ReadonlyArray<Buffer>): Promise<string> =>
      rawExchange(h, async (socket) => {
        const length = parts.reduce((n, p) => n + p.length, 0);
        const head = `POST /api/ping HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
        const [first, ...rest] = parts;
        socket.write(Buffer.concat([Buffer.from(head), first ?? Buffer.alloc(0)]));
        for (const part of rest) {
          // A later packet, so the server most likely starts reading an incomplete body. The answer
          // must be the same either way: the wait decides which path is taken, never the outcome.
          await new Promise((resolve) => setTimeout(resolve, 20));
          socket.write(part);
        }
      });

    it('whole, in the packet with the headers', async () => {
      const text = await rawPost([Buffer.from('{"payload":"together ✓"}')]);
      expect(text).to.match(/^HTTP\/1\.1 200 /);
      expect(text).to.contain('{"payload":"together ✓"}');
    });

    it('in pieces, the last after the server started reading (a multi-byte character split between them)', async () => {
      const whole = Buffer.from('{"payload":"apart ✓"}');
      const cut = whole.indexOf(Buffer.from('✓')) + 1;
      const text = await rawPost([whole.subarray(0, cut), whole.subarray(cut)]);
      expect(text).to.match(/^HTTP\/1\.1 200 /);
      expect(text).to.contain('{"payload":"apart ✓"}');
    });
  });

  describe('without a valid token the body is never looked at', () => {
    it('401 for malformed JSON', async () => {
      const res = await post(undefined, Buffer.from('{bad'), false);
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('unauthorized');
    });

    it('401 for a bad gzip body, with no error log', async () => {
      const res = await post('gzip', Buffer.from('xx'), false);
      expect(res.status).to.equal(401);
      expectNoErrorLogged();
    });

    it('401 for a zip bomb and for an unknown encoding', async () => {
      const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 32));
      expect((await post('gzip', bomb, false)).status).to.equal(401);
      expect((await post('zstd', Buffer.from('x'), false)).status).to.equal(401);
    });

    it('401 on /admin with a bad admin token, before the body', async () => {
      const res = await h.request
        .post('/admin/clients')
        .set('Authorization', 'Bearer wrong-token-000000000')
        .set('Content-Type', 'application/json')
        .send('{bad');
      expect(res.status).to.equal(401);
    });

    it('answers 401 while the body is still being sent, and closes the connection', async () => {
      // Headers and 1 byte of a 1 MiB body: the rest never comes.
      const received = await rawExchange(h, (socket) => {
        socket.write(`POST /api/ping HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n{`);
      });
      expect(received).to.match(/^HTTP\/1\.1 401 /);
      expect(received.toLowerCase()).to.contain('\r\nconnection: close\r\n');
    });
  });
});
