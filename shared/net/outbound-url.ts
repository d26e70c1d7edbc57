import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors';
import { isForbiddenAddress } from './address-policy';

/** Hosts exempt from the address check (config `WEBHOOK_ALLOWED_HOSTS`, docs/spec/contract.md §7). */
export interface OutboundPolicy {
  allowedHosts: readonly string[];
}

export const OUTBOUND_URL_MAX_LENGTH = 2048;

/**
 * A host name or IP literal in the form allow-list entries and URL hosts are compared in:
 * lowercase, IPv6 without brackets and in canonical (RFC 5952) form, so `[::1]`, `::1` and
 * `0:0:0:0:0:0:0:1` are the same entry. Names are compared exactly (no wildcards, no trailing-dot
 * folding, no port).
 */
export function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return isIP(bare) === 6 ? ipaddr.IPv6.parse(bare).toString() : bare;
}

export function isAllowedHost(host: string, allowedHosts: readonly string[]): boolean {
  const wanted = normalizeHost(host);
  return allowedHosts.some((entry) => normalizeHost(entry) === wanted);
}

/**
 * The scheme and form rules that need no DNS, shared with the call-time check of the outbound
 * client. Returns the parsed URL or the reason it is refused.
 */
export function parseOutboundUrl(
  url: string,
  allowedHosts: readonly string[],
): { url: URL } | { reason: string } {
  if (url.length > OUTBOUND_URL_MAX_LENGTH) {
    return { reason: `must be at most ${OUTBOUND_URL_MAX_LENGTH} characters` };
  }
  let parsed: URL;
  try {
    // WHATWG parsing normalises IPv4 spellings (`2130706433`, `0x7f.1`) to dotted quads.
    parsed = new URL(url);
  } catch {
    return { reason: 'must be an absolute URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { reason: 'must use https' };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { reason: 'must not contain credentials' };
  }
  if (parsed.protocol === 'http:' && !isAllowedHost(parsed.hostname, allowedHosts)) {
    return { reason: 'must use https' };
  }
  return { url: parsed };
}

/**
 * Checks a URL given for an agent endpoint or a webhook before it is stored (docs/spec/contract.md §7): https
 * (plain http only for allow-listed hosts), no credentials, and unless the host is allow-listed,
 * every address it resolves to must be public. The outbound client checks the addresses again
 * when it connects, since DNS may answer differently later.
 *
 * Throws AppError('invalid_url', '<field>: <reason>') when the URL may not be called.
 */
export async function checkOutboundUrl(
  url: string,
  policy: OutboundPolicy,
  field = 'url',
): Promise<URL> {
  const result = parseOutboundUrl(url, policy.allowedHosts);
  if ('reason' in result) throw new AppError('invalid_url', `${field}: ${result.reason}`);
  const parsed = result.url;
  if (isAllowedHost(parsed.hostname, policy.allowedHosts)) return parsed;

  const host = normalizeHost(parsed.hostname);
  const addresses = isIP(host) !== 0 ? [host] : await resolve(host);
  if (!addresses) throw new AppError('invalid_url', `${field}: host does not resolve`);
  if (addresses.some(isForbiddenAddress)) {
    throw new AppError('invalid_url', `${field}: host is not a public address`);
  }
  return parsed;
}

async function resolve(host: string): Promise<string[] | undefined> {
  try {
    const answers = await lookup(host, { all: true, verbatim: true });
    return answers.length > 0 ? answers.map((answer) => answer.address) : undefined;
  } catch {
    return undefined;
  }
}
