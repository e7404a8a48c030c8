// IPv4 and IPv6 addresses and CIDR ranges (ipaddr.js): the trusted proxies (TRUSTED_PROXIES) and the client
// addresses an API key may call from are both lists of them. IPv4 peers of a dual-stack socket (::ffff:a.b.c.d)
// count as IPv4.
import ipaddr from 'ipaddr.js';

export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address (a range of one) or a CIDR range, e.g. `203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`; null: neither. */
export function parseAddressRange(entry: string): AddressRange | null {
  const text = entry.trim();
  try {
    if (text.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(text);
      return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96
        ? [(address as ipaddr.IPv6).toIPv4Address(), bits - 96]
        : [address, bits];
    }
    const address = ipaddr.process(text);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

/** The range as it is stored and shown: its network address and prefix length (`10.0.0.0/8`, `2001:db8::/32`). */
export function formatAddressRange([address, bits]: AddressRange): string {
  const network =
    address.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`);
  return `${network.toString()}/${bits}`;
}

/** Whether `address` lies in one of `ranges`; an address that does not parse lies in none. */
export function inAddressRanges(address: string, ranges: AddressRange[]): boolean {
  if (!ranges.length || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}
