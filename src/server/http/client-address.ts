// Who the client is. The app's server sees the socket's peer; a proxy in front of it names the client it forwards
// for in X-Forwarded-For (and the scheme, host and port in X-Forwarded-Proto, -Host, -Port). Any client can send
// those headers too, so they are believed only from the proxies named in TRUSTED_PROXIES (addresses or CIDR ranges),
// and only as far as the chain of trusted hops goes: X-Forwarded-For is read from the right, each trusted hop giving
// way to the address it names, and the first untrusted one is the client. With TRUSTED_PROXIES unset the socket's
// peer is the client, whatever the request says.
//
// The HTTP front settles this once per request and leaves the answer in the headers everything after it reads
// (`clientIp`, Next.js's route handlers, next-auth): X-Forwarded-For holds the one client address, the others the
// trusted values or none.
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import { inAddressRanges, parseAddressRange, type AddressRange } from '@/server/core/address-ranges';
import { config } from '@/server/core/config';

export interface TrustedProxies {
  /** Whether `address` is a proxy whose forwarding headers are believed. */
  includes(address: string): boolean;
}

/** The address as clients are compared and shown: IPv4 peers of a dual-stack socket (::ffff:a.b.c.d) as IPv4. */
function normalizeAddress(address: string): string | null {
  const bare = address.trim().replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.process(bare);
  return parsed.toString();
}

/** TRUSTED_PROXIES: a comma-separated list of addresses and CIDR ranges, e.g. `127.0.0.1,10.0.0.0/8,::1`. */
export function parseTrustedProxies(setting: string | undefined): TrustedProxies {
  const ranges: AddressRange[] = [];
  for (const entry of (setting ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const range = parseAddressRange(entry);
    if (!range) throw new Error(`TRUSTED_PROXIES: "${entry}" is neither an IP address nor a CIDR range`);
    ranges.push(range);
  }
  // Without TRUSTED_PROXIES, as on most requests, nothing to parse.
  return { includes: (address) => inAddressRanges(address, ranges) };
}

export function trustedProxiesSetting(): TrustedProxies {
  return parseTrustedProxies(config().TRUSTED_PROXIES?.join(','));
}

function headerList(value: string | string[] | undefined): string[] {
  return (Array.isArray(value) ? value.join(',') : (value ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The socket's peer, normalised once per connection (a keep-alive connection carries many requests). */
const peers = new WeakMap<object, string | null>();

function peerOf(req: IncomingMessage): string | null {
  let peer = peers.get(req.socket);
  if (peer === undefined) {
    peer = normalizeAddress(req.socket.remoteAddress ?? '');
    peers.set(req.socket, peer);
  }
  return peer;
}

/**
 * Settles the forwarding headers of `req` in place: X-Forwarded-For becomes the client's address alone; X-Forwarded-
 * Proto, -Host and -Port are kept only when the peer is a trusted proxy (Proto is otherwise the socket's own);
 * X-Real-IP, which nothing here sets, is dropped.
 */
export function settleForwarding(req: IncomingMessage, trusted: TrustedProxies, overTls: boolean): void {
  const peer = peerOf(req);
  const fromProxy = peer !== null && trusted.includes(peer);
  let client = peer;
  if (fromProxy) {
    const hops = headerList(req.headers['x-forwarded-for']);
    while (client !== null && trusted.includes(client) && hops.length) {
      const named = normalizeAddress(hops.pop()!);
      // A trusted proxy that names no address: the proxy itself is as far as anything is known.
      if (named === null) break;
      client = named;
    }
  }
  if (client === null) delete req.headers['x-forwarded-for'];
  else req.headers['x-forwarded-for'] = client;
  delete req.headers['x-real-ip'];
  if (!fromProxy) {
    req.headers['x-forwarded-proto'] = overTls ? 'https' : 'http';
    delete req.headers['x-forwarded-host'];
    delete req.headers['x-forwarded-port'];
  }
}
