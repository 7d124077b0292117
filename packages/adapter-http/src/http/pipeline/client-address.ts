/**
 * The client's address and scheme behind trusted proxies (docs/decisions/proxies.md).
 *
 * Production runs behind a TLS-terminating proxy, so every connection comes
 * from the proxy. With `DEBTKIT_TRUSTED_PROXIES` set, the client's address is
 * taken from `X-Forwarded-For`, walked from the right through trusted hops only
 * (proxy-addr's walk: the first untrusted entry is the client, so entries a
 * client forged to the left of what its first trusted proxy appended are
 * never believed), and the scheme from `X-Forwarded-Proto`, only when the
 * connection's peer is a trusted proxy. Koa's `app.proxy` is not used: it
 * believes those headers from any peer.
 *
 * The address is set as Koa's own `ctx.ip` (so every step, and an embedding
 * service's middleware, reads the client's), the scheme as `ctx.state.scheme`.
 * Without trusted proxies nothing is changed: the peer is the client and the
 * headers are ignored.
 */
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { AppMiddleware, RequestContext } from '../app-context.js';

export type Scheme = 'http' | 'https';

/** proxy-addr takes it (it refuses a /0: trusting every address is never what is meant). */
const proxyAddrTakes = (entry: string): boolean => {
  try {
    proxyaddr.compile([entry]);
    return true;
  } catch {
    return false;
  }
};

/** Whether `entry` is an IP address or a CIDR (`10.0.0.0/8`, `fd00::/8`): what DEBTKIT_TRUSTED_PROXIES lists. */
export const isAddressOrCidr = (entry: string): boolean => {
  const slash = entry.indexOf('/');
  const family = isIP(slash === -1 ? entry : entry.slice(0, slash));
  if (family === 0) return false;
  const bits = slash === -1 ? undefined : entry.slice(slash + 1);
  if (bits !== undefined && !(/^[0-9]{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))) return false;
  return proxyAddrTakes(entry);
};

/**
 * The scheme the client used, from `X-Forwarded-Proto` as the trusted hops
 * passed it. Proxies that append keep one entry per hop, aligned with the
 * `X-Forwarded-For` entries they appended: the client's is `trustedHops` from
 * the right (a proxy that replaces the header leaves one entry, which is it).
 * Anything but `http` or `https` there is ignored.
 */
const forwardedScheme = (req: IncomingMessage, trustedHops: number): Scheme | undefined => {
  const header = req.headers['x-forwarded-proto'];
  if (typeof header !== 'string') return undefined;
  const entries = header.split(',');
  const entry = entries[Math.max(0, entries.length - trustedHops)]?.trim().toLowerCase();
  return entry === 'https' || entry === 'http' ? entry : undefined;
};

/** The scheme of the request: as the trusted proxies reported it, else the connection's own. */
export const schemeOf = (ctx: Pick<RequestContext, 'state' | 'protocol'>): Scheme =>
  ctx.state.scheme ?? (ctx.protocol === 'https' ? 'https' : 'http');

export interface ClientAddressOptions {
  /** Addresses and CIDRs of the proxies in front (IPv4 and IPv6); checked at start (`isAddressOrCidr`). */
  readonly trustedProxies: ReadonlyArray<string>;
}

/** Sets `ctx.ip` to the client's address and `ctx.state.scheme` to its scheme when the peer is a trusted proxy. */
export const clientAddress = (options: ClientAddressOptions): AppMiddleware => {
  for (const entry of options.trustedProxies) {
    if (!isAddressOrCidr(entry)) throw new Error(`clientAddress: ${JSON.stringify(entry)} is not an IP address or CIDR`);
  }
  const trust = proxyaddr.compile([...options.trustedProxies]);
  return async function clientAddress(ctx, next) {
    const { req } = ctx;
    const peer = req.socket.remoteAddress;
    if (peer !== undefined && trust(peer, 0)) {
      // [peer, then X-Forwarded-For from the right, up to and including the first untrusted entry].
      const hops = proxyaddr.all(req, trust);
      // A trusted proxy that passed something not an address: the last hop that is one answers for it.
      let client = hops.length - 1;
      while (client > 0 && isIP(hops[client]!) === 0) client--;
      ctx.request.ip = hops[client]!;
      ctx.state.scheme = forwardedScheme(req, client) ?? (ctx.protocol === 'https' ? 'https' : 'http');
    }
    return next();
  };
};
