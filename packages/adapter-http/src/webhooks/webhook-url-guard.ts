/**
 * SSRF protection for webhook URLs (docs/decisions/webhooks.md). In production a webhook may
 * only go to `https://` on a host whose every address is public unicast:
 * never loopback, private, link-local, CGNAT, multicast, unspecified or
 * reserved. An IPv6 form that embeds IPv4 (mapped, compatible, translated,
 * NAT64, 6to4, Teredo) is judged as the IPv4 it embeds. Sandbox also allows `http://` and loopback, for
 * local receivers, but still refuses the other non-public ranges (a sandbox
 * server can sit next to a cloud metadata service too).
 *
 * The rule is checked at registration (`check`) and again at delivery, where
 * `guardedLookup` is the connection's own resolver: the address that is
 * checked is the address that is connected to, so a name that changes its
 * answer between the two (DNS rebinding) gains nothing.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import ipaddr from 'ipaddr.js';
import { validationError, type ValidationError, type Environment, type WebhookUrlPolicy } from '@debtkit/core';

/** Resolve a host name to all of its addresses (node's `dns.lookup` with `all: true`, or a test's stand-in). */
export type ResolveHost = (hostname: string) => Promise<ReadonlyArray<LookupAddress>>;

export const systemResolveHost: ResolveHost = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** The IPv4 address in the 32 bits of `parts` from `at` (two 16-bit parts), XORed with `mask`. */
const ipv4At = (parts: ReadonlyArray<number>, at: number, mask = 0): ipaddr.IPv4 => {
  const high = (parts[at] ?? 0) ^ (mask >>> 16);
  const low = (parts[at + 1] ?? 0) ^ (mask & 0xffff);
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
};

/**
 * The IPv4 addresses an IPv6 address embeds, so that it is judged as them
 * (docs/decisions/webhooks.md, "IPv4 inside IPv6"): a packet to any of these forms
 * ends up at (or is relayed through) that IPv4 address, so `[::127.0.0.1]`
 * must be refused exactly as `127.0.0.1` is.
 * - `::ffff:0:0/96` IPv4-mapped (RFC 4291) and `::ffff:0:0:0/96` IPv4-translated (RFC 6145): the last 32 bits;
 * - `::/96` IPv4-compatible (RFC 4291, deprecated): the last 32 bits, except `::` and `::1` (IPv6's own unspecified and loopback);
 * - `64:ff9b::/96` NAT64's well-known prefix (RFC 6052): the last 32 bits;
 * - `2002::/16` 6to4 (RFC 3056): bits 16–47;
 * - `2001::/32` Teredo (RFC 4380): the server in bits 32–63 and the client, obfuscated (every bit inverted), in the last 32.
 * `undefined` for an address that embeds none. `64:ff9b:1::/48` (RFC 8215, a
 * network's own NAT64 prefix, where the IPv4 may sit anywhere) is refused by
 * its own range, as before.
 */
const embeddedIPv4 = (address: ipaddr.IPv6): ReadonlyArray<ipaddr.IPv4> | undefined => {
  const p = address.parts;
  const zeros = (from: number, to: number): boolean => p.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && p[5] === 0xffff) return [ipv4At(p, 6)];
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return [ipv4At(p, 6)];
  if (zeros(0, 6)) return p[6] === 0 && (p[7] === 0 || p[7] === 1) ? undefined : [ipv4At(p, 6)];
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return [ipv4At(p, 6)];
  if (p[0] === 0x2002) return [ipv4At(p, 1)];
  if (p[0] === 0x2001 && p[1] === 0) return [ipv4At(p, 2), ipv4At(p, 6, 0xffffffff)];
  return undefined;
};

/** Whether `parsed` (an address with no IPv4 inside) may receive webhooks in `environment`. */
const isAllowedRange = (parsed: ipaddr.IPv4 | ipaddr.IPv6, environment: Environment): boolean => {
  const range = parsed.range();
  if (range === 'unicast') return true;
  return environment === 'sandbox' && range === 'loopback';
};

/**
 * Whether a webhook may be sent to `address` in `environment`. An IPv6
 * address that embeds IPv4 addresses is judged as every one of them
 * (`embeddedIPv4`), whatever its own range says.
 */
export const isAllowedAddress = (address: string, environment: Environment): boolean => {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  const inside = parsed instanceof ipaddr.IPv6 ? embeddedIPv4(parsed) : undefined;
  return inside === undefined ? isAllowedRange(parsed, environment) : inside.every((v4) => isAllowedRange(v4, environment));
};

/** A URL's host as an address or name: brackets of an IPv6 literal removed. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

export interface WebhookUrlGuardOptions {
  readonly environment: Environment;
  readonly resolveHost?: ResolveHost;
}

const refused = (message: string): ValidationError => validationError('Invalid webhook URL', [{ path: 'url', message }]);

export class WebhookUrlGuard implements WebhookUrlPolicy {
  private readonly resolveHost: ResolveHost;

  constructor(private readonly options: WebhookUrlGuardOptions) {
    this.resolveHost = options.resolveHost ?? systemResolveHost;
  }

  /** Why `raw` may not receive webhooks here, or `undefined` when it may. */
  async refusal(raw: string): Promise<string | undefined> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'must be an absolute URL';
    }
    const { environment } = this.options;
    if (url.protocol !== 'https:' && !(environment === 'sandbox' && url.protocol === 'http:')) {
      return environment === 'sandbox' ? 'must use http or https' : 'must use https';
    }
    const host = hostOf(url);
    let addresses: ReadonlyArray<string>;
    if (isIP(host) !== 0) addresses = [host];
    else {
      try {
        addresses = (await this.resolveHost(host)).map((a) => a.address);
      } catch {
        return 'the host does not resolve';
      }
      if (addresses.length === 0) return 'the host does not resolve';
    }
    const bad = addresses.find((a) => !isAllowedAddress(a, environment));
    return bad === undefined
      ? undefined
      : 'must be a public host (it is or resolves to a loopback, private, link-local or otherwise non-public address)';
  }

  check(url: string): TE.TaskEither<ValidationError, void> {
    return async () => {
      const why = await this.refusal(url);
      return why === undefined ? E.right(undefined) : E.left(refused(why));
    };
  }

  /**
   * A `lookup` for `http.request` that resolves with `resolveHost` and fails
   * the connection when any address of the name is not allowed.
   */
  readonly guardedLookup: LookupFunction = (hostname, options, callback) => {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    const fail = (message: string) => callback(Object.assign(new Error(message), { code: 'EWEBHOOKADDRESS' }), '', 0);
    this.resolveHost(host).then(
      (addresses) => {
        const allowed = addresses.filter((a) => isAllowedAddress(a.address, this.options.environment));
        if (addresses.length === 0 || allowed.length !== addresses.length) return fail(`webhook host ${host} is not a public address`);
        if (options.all === true)
          return callback(
            null,
            allowed.map((a) => ({ address: a.address, family: a.family })),
          );
        const first = allowed[0] as LookupAddress;
        return callback(null, first.address, first.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  };
}
