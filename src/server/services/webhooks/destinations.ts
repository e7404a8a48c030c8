// Where webhooks may be sent (CONTRACT "Webhooks"): HTTPS only, never to loopback, private, link-local or other
// non-public addresses. The check runs when an endpoint is saved and again at each delivery, on the addresses DNS
// gives then; the delivery connects to the address that was checked, so a rebinding DNS answer cannot redirect it.
// WEBHOOKS_ALLOW_HTTP_LOCALHOST=true (development and tests only) also allows http://localhost and loopback.
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export type DestinationKind = 'signed' | 'slack' | 'discord';

/** Hosts whose incoming-webhook URLs receive chat messages instead of the signed envelope. Tests add theirs. */
export function chatHosts(): Record<'slack' | 'discord', string[]> {
  const extra = (name: string) => (process.env[name] ?? '').split(',').map((host) => host.trim().toLowerCase()).filter(Boolean);
  return {
    slack: ['hooks.slack.com', ...extra('WEBHOOK_SLACK_HOSTS')],
    discord: ['discord.com', 'discordapp.com', 'canary.discord.com', 'ptb.discord.com', ...extra('WEBHOOK_DISCORD_HOSTS')],
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
  return process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST === 'true';
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

/** Why an address may not receive webhooks, or null when it is public. */
export function refusalFor(address: string): string | null {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && allowsLocalDevelopment()) return null;
  const names: Record<string, string> = {
    loopback: 'a loopback address',
    private: 'a private address',
    uniqueLocal: 'a private address',
    linkLocal: 'a link-local address',
    carrierGradeNat: 'a shared (carrier-grade NAT) address',
    unspecified: 'an unspecified address',
    multicast: 'a multicast address',
    broadcast: 'a broadcast address',
  };
  return `The destination resolves to ${names[range] ?? `a reserved address (${range})`} (${parsed.toString()}), which cannot receive webhooks.`;
}

export type Resolution = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;
const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Every address the name resolves to must be allowed; the first one is used for the connection. */
export async function resolveDestination(url: URL, lookup: Lookup = systemLookup): Promise<Resolution> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = ipaddr.isValid(hostname) ? [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }] : await lookup(hostname);
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
