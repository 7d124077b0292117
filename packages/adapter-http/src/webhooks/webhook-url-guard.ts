/**
 * SSRF protection for webhook URLs (docs/decisions/webhooks.md). In production a webhook may
 * only go to `https://` on a host whose every address is public unicast:
 * never loopback, private, link-local, CGNAT, multicast, unspecified, reserved
 * or a translation range that embeds an IPv4 address (IPv4-mapped IPv6 is
 * judged as the IPv4 it maps). Sandbox also allows `http://` and loopback, for
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
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** The address as ipaddr.js sees it, an IPv4-mapped IPv6 address as its IPv4. */
const parse = (address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined => {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.parse(address);
  return parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
};

/** Whether a webhook may be sent to `address` in `environment`. */
export const isAllowedAddress = (address: string, environment: Environment): boolean => {
  const parsed = parse(address);
  if (parsed === undefined) return false;
  const range = parsed.range();
  if (range === 'unicast') return true;
  return environment === 'sandbox' && range === 'loopback';
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
    return bad === undefined ? undefined : 'must be a public host (it is or resolves to a loopback, private, link-local or otherwise non-public address)';
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
        if (options.all === true) return callback(null, allowed.map((a) => ({ address: a.address, family: a.family })));
        const first = allowed[0] as LookupAddress;
        return callback(null, first.address, first.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  };
}
