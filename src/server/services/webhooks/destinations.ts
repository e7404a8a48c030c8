// Where webhooks may be sent (CONTRACT "Webhooks"): HTTPS only, never to loopback, private, link-local or any other
// special-purpose address. The check runs when an endpoint is saved and again at each delivery, on the addresses DNS
// gives then; the delivery connects to the address that was checked, so a rebinding DNS answer cannot redirect it.
// WEBHOOKS_ALLOW_HTTP_LOCALHOST=true (development and tests only) also allows http://localhost and loopback.
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { config } from '@/server/core/config';

export type DestinationKind = 'signed' | 'slack' | 'discord';

/** Hosts whose incoming-webhook URLs receive chat messages instead of the signed envelope. Tests add theirs. */
function chatHosts(): Record<'slack' | 'discord', string[]> {
  const { WEBHOOK_SLACK_HOSTS, WEBHOOK_DISCORD_HOSTS } = config();
  const lower = (hosts: string[]) => hosts.map((host) => host.toLowerCase());
  return {
    slack: ['hooks.slack.com', ...lower(WEBHOOK_SLACK_HOSTS)],
    discord: [
      'discord.com',
      'discordapp.com',
      'canary.discord.com',
      'ptb.discord.com',
      ...lower(WEBHOOK_DISCORD_HOSTS),
    ],
  };
}

export function destinationKind(url: URL): DestinationKind {
  const hosts = chatHosts();
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  const matches = (list: string[]) => list.includes(host) || list.includes(hostname);
  if (matches(hosts.slack) && url.pathname.startsWith('/services/')) return 'slack';
  if (matches(hosts.discord) && url.pathname.startsWith('/api/webhooks/')) return 'discord';
  return 'signed';
}

function allowsLocalDevelopment(): boolean {
  return config().WEBHOOKS_ALLOW_HTTP_LOCALHOST;
}

const LOCAL_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export type DestinationCheck = { ok: true; url: URL; kind: DestinationKind } | { ok: false; reason: string };

/** The address itself, before any lookup. */
export function checkDestinationUrl(raw: string): DestinationCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'This is not a valid URL.' };
  }
  if (raw.length > 2048) return { ok: false, reason: 'The URL is longer than 2,048 characters.' };
  if (url.username || url.password) return { ok: false, reason: 'The URL must not contain a user name or password.' };
  const local = LOCAL_NAMES.has(url.hostname.toLowerCase());
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local && allowsLocalDevelopment())) {
    return { ok: false, reason: 'Webhook endpoints must use HTTPS.' };
  }
  if (ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, ''))) {
    const refusal = refusalFor(url.hostname.replace(/^\[|\]$/g, ''));
    if (refusal) return { ok: false, reason: refusal };
  }
  return { ok: true, url, kind: destinationKind(url) };
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** [CIDR, what it is], most specific first, so that an address is named by the narrowest range it is in. */
const SPECIAL_PURPOSE: [string, string][] = [
  // IANA IPv4 Special-Purpose Address Registry.
  ['0.0.0.0/8', 'an unspecified ("this network") address'],
  ['10.0.0.0/8', 'a private address'],
  ['100.64.0.0/10', 'a shared (carrier-grade NAT) address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['169.254.0.0/16', 'a link-local address'],
  ['172.16.0.0/12', 'a private address'],
  ['192.0.0.0/24', 'an IETF protocol assignment'],
  ['192.0.2.0/24', 'a documentation address'],
  ['192.31.196.0/24', 'an AS112 address'],
  ['192.52.193.0/24', 'an AMT address'],
  ['192.88.99.0/24', 'a 6to4 relay anycast address'],
  ['192.168.0.0/16', 'a private address'],
  ['192.175.48.0/24', 'an AS112 address'],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['198.51.100.0/24', 'a documentation address'],
  ['203.0.113.0/24', 'a documentation address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['255.255.255.255/32', 'a broadcast address'],
  ['240.0.0.0/4', 'a reserved address'],
  // IANA IPv6 Special-Purpose Address Registry, and the IPv6 forms that carry an IPv4 address.
  ['::1/128', 'a loopback address'],
  ['::/128', 'an unspecified address'],
  ['::ffff:0:0/96', 'an IPv4-mapped address'],
  ['::/96', 'an IPv4-compatible address'],
  ['64:ff9b::/96', 'an IPv4/IPv6 translation (NAT64) address'],
  ['64:ff9b:1::/48', 'an IPv4/IPv6 translation (NAT64) address'],
  ['100::/64', 'a discard-only address'],
  ['2001::/32', 'a Teredo address'],
  ['2001:db8::/32', 'a documentation address'],
  ['2001::/23', 'an IETF protocol assignment'],
  ['2002::/16', 'a 6to4 address'],
  ['2620:4f:8000::/48', 'an AS112 address'],
  ['3fff::/20', 'a documentation address'],
  ['5f00::/16', 'an SRv6 address'],
  ['fc00::/7', 'a private (unique local) address'],
  ['fe80::/10', 'a link-local address'],
  ['fec0::/10', 'a site-local address'],
  ['ff00::/8', 'a multicast address'],
];
const SPECIAL_RANGES: [Range, string][] = SPECIAL_PURPOSE.map(([cidr, name]) => [ipaddr.parseCIDR(cidr), name]);
const LOOPBACK: Range[] = [ipaddr.parseCIDR('127.0.0.0/8'), ipaddr.parseCIDR('::1/128')];
/** IPv6 global unicast: every other IPv6 address is not a destination on the internet. */
const GLOBAL_UNICAST_V6: Range = ipaddr.parseCIDR('2000::/3');

const inRange = (address: ipaddr.IPv4 | ipaddr.IPv6, [range, bits]: Range) =>
  address.kind() === range.kind() && address.match(range, bits);

/**
 * IPv6 as the URL standard writes it: ipaddr.js reads a dotted tail as IPv4-mapped whatever precedes it
 * (`::127.0.0.1` as `::ffff:127.0.0.1`), which would misname an IPv4-compatible address.
 */
function canonical(address: string): string {
  if (!address.includes(':') || !address.includes('.')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/**
 * Why an address may not receive webhooks, or null when it is public: every special-purpose range of IANA's two
 * registries is refused, IPv4 carried in IPv6 included (mapped, compatible, NAT64, 6to4, Teredo), and so is any IPv6
 * address outside global unicast.
 */
function refusalFor(address: string): string | null {
  const parsed = ipaddr.parse(canonical(address));
  if (allowsLocalDevelopment() && LOOPBACK.some((range) => inRange(parsed, range))) return null;
  const special = SPECIAL_RANGES.find(([range]) => inRange(parsed, range))?.[1];
  const name =
    special ??
    (parsed.kind() === 'ipv6' && !inRange(parsed, GLOBAL_UNICAST_V6) ? 'an address outside IPv6 global unicast' : null);
  return name && `The destination resolves to ${name} (${parsed.toString()}), which cannot receive webhooks.`;
}

export type Resolution = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;
const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Every address the name resolves to must be allowed; the first one is used for the connection. */
export async function resolveDestination(url: URL, lookup: Lookup = systemLookup): Promise<Resolution> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = ipaddr.isValid(hostname)
      ? [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }]
      : await lookup(hostname);
  } catch {
    return { ok: false, reason: `The host name ${hostname} does not resolve.` };
  }
  if (!addresses.length) return { ok: false, reason: `The host name ${hostname} does not resolve.` };
  for (const { address } of addresses) {
    const refusal = refusalFor(address);
    if (refusal) return { ok: false, reason: refusal };
  }
  const first = addresses[0]!;
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}
