import { BlockList, isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * Address ranges the hub never connects to (outside the test setting): anything that is not a plain,
 * globally routed unicast address, and every IPv6 form that embeds an IPv4 address (so a mapped or
 * translated private IPv4 cannot slip through as "IPv6").
 */
const IPV4: ReadonlyArray<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'CGNAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved/broadcast'],
];
const IPV6: ReadonlyArray<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible'],
  ['::ffff:0:0', 96, 'IPv4-mapped'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64 local'],
  ['100::', 64, 'discard'],
  ['2001::', 32, 'Teredo'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['fc00::', 7, 'unique local (ULA)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

const lists = [
  ...IPV4.map(([a, p, why]) => ({ why, type: 'ipv4' as const, a, p })),
  ...IPV6.map(([a, p, why]) => ({ why, type: 'ipv6' as const, a, p })),
].map((r) => {
  const list = new BlockList();
  list.addSubnet(r.a, r.p, r.type);
  return { ...r, list };
});

/**
 * Why the hub must not connect to `address` (an IP literal), or null when it is public unicast.
 * A string that is not an IP address is refused too: only resolved addresses are checked here.
 */
export function forbiddenReason(address: string): string | null {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const r of lists) if (r.type === type && r.list.check(ip, type)) return r.why;
  return null;
}

/** Host names that always mean this machine; refused at request time without asking DNS. */
export const isLocalHostname = (hostname: string) => /(^|\.)localhost$/.test(canonicalHost(hostname));

/**
 * The one spelling of a host for limits and address rules: lower case, IDNA (punycode) labels, no
 * trailing dots (`Example.COM.`, `example.com..` and `example.com` are one host to DNS, so they are
 * one here). IP literals are returned without brackets; a name DNS could not use is kept lower-cased.
 */
export function canonicalHost(hostname: string): string {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return bare.toLowerCase();
  const trimmed = bare.replace(/\.+$/, '');
  return domainToASCII(trimmed) || trimmed.toLowerCase();
}
