import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses outbound calls (agent endpoints, webhooks) may reach (docs/spec/contract.md §7).
 *
 * Only ipaddr.js's `unicast` range (its name for "none of the special ranges") is allowed, so
 * every named range is refused: loopback, private (RFC 1918), link-local (incl. the cloud
 * metadata address 169.254.169.254), carrier-grade NAT, unspecified, broadcast, multicast,
 * reserved, documentation and benchmarking ranges, AS112, AMT, IPv6 unique-local (incl. AWS's
 * fd00:ec2::254), site-local, discard, ORCHID, Teredo and segment routing.
 *
 * Addresses that embed an IPv4 address are judged by it: IPv4-mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d` (a DNS64 resolver hands these out for public IPv4-only hosts) and 6to4
 * `2002:aabb:ccdd::/48`. The other translation prefixes (`::ffff:0:a.b.c.d`, the local-use NAT64
 * prefix `64:ff9b:1::/48`) and the deprecated IPv4-compatible `::a.b.c.d` are refused outright.
 */
export function isForbiddenAddress(ip: string): boolean {
  const address = parseStrict(ip);
  if (!address) return true;
  if (address.kind() === 'ipv4') return address.range() !== 'unicast';
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return embedded.range() !== 'unicast';
  if (v6.parts.slice(0, 6).every((part) => part === 0)) return true;
  return v6.range() !== 'unicast';
}

/**
 * IPv4 only in plain dotted-quad form: ipaddr.js would also read `0x7f.1` or `0177.0.0.1`, which
 * a DNS answer never contains and which would hide what is being judged.
 */
function parseStrict(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare);
  return undefined;
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const [p0, p1, p2, p3, p4, p5, p6 = 0, p7 = 0] = address.parts;
  const range = address.range();
  if (range === 'ipv4Mapped') return fromParts(p6, p7);
  // 64:ff9b::/96 only; the /48 local-use NAT64 prefix in the same range name is refused.
  const nat64 = p0 === 0x64 && p1 === 0xff9b && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0;
  if (range === 'rfc6052' && nat64) return fromParts(p6, p7);
  if (range === '6to4') return fromParts(p1 ?? 0, p2 ?? 0);
  return undefined;
}

function fromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
