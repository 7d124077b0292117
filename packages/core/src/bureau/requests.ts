/**
 * The bureau feature's request codecs (InvokeBureauBody, ConsentBody, OtpBody, IdentityBody): what its operations accept, the single source
 * of truth the HTTP adapter decodes with and the OpenAPI document is generated from (shared/requests.ts holds
 * the kernel's shared pieces: page fields, query integers and ids). Objects are strict: unknown fields are rejected.
 */
import * as t from 'io-ts';
import { IsoDate } from '../shared/primitives.js';
import { strictObject } from '../shared/codec.js';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** An IPv6 literal (RFC 4291 text forms, incl. `::` compression and an IPv4 tail). */
const isIpv6 = (s: string): boolean => {
  if (s.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  const halves = s.split('::');
  if (halves.length > 2) return false;
  const groups = (part: string): string[] | null => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0] ?? '');
  const tail = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (head === null || tail === null) return false;
  const all = [...head, ...tail];
  let count = 0;
  for (let i = 0; i < all.length; i++) {
    const g = all[i] ?? '';
    if (i === all.length - 1 && g.includes('.')) {
      if (!IPV4.test(g)) return false;
      count += 2;
    } else if (/^[0-9A-Fa-f]{1,4}$/.test(g)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count < 8 : count === 8;
};
/** The user's IP address: an IPv4 or IPv6 literal of at least 7 characters (docs/api/reference.md). */
export const DeviceIp = t.refinement(t.string, (s) => s.length >= 7 && (IPV4.test(s) || isIpv6(s)), 'IP address (IPv4 or IPv6, ≥7 chars)');
export const InvokeBureauBody = strictObject('InvokeBureauBody', { device_ip: DeviceIp });
export type InvokeBureauBody = t.TypeOf<typeof InvokeBureauBody>;

export const ConsentBody = strictObject('ConsentBody', { accepted: t.literal(true) });
export const OtpBody = strictObject('OtpBody', {
  code: t.refinement(t.string, (s) => /^[0-9]{6}$/.test(s), '6-digit code'),
});
export type OtpBody = t.TypeOf<typeof OtpBody>;
export const IdentityBody = strictObject('IdentityBody', {
  ssn_last4: t.refinement(t.string, (s) => /^[0-9]{4}$/.test(s), '4 digits'),
  date_of_birth: IsoDate,
});
export type IdentityBody = t.TypeOf<typeof IdentityBody>;
