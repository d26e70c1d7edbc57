import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, errors as undiciErrors, request } from 'undici';
import { isForbiddenAddress } from './address-policy';
import { isAllowedHost, parseOutboundUrl } from './outbound-url';

export const OUTBOUND_USER_AGENT = 'agent-platform/0.1';

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
  durationMs: number;
}

export type OutboundErrorKind =
  'timeout' | 'network' | 'forbidden_address' | 'too_large' | 'invalid_url' | 'too_many_redirects';

/** A file fetched by `fetchBytes`: the final answer's status and headers, the bytes whole. */
export interface FetchedBytes {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
}

export interface FetchBytesOptions {
  /** More bytes than this fail with `too_large`, the rest unread. */
  maxBytes: number;
  /** Redirects followed (each target checked as the first URL was); more fail. */
  maxRedirects: number;
  headers?: Record<string, string>;
}

/** A failed outbound call. The message is safe to show to the URL's owner; `cause` is for logs. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OutboundError';
  }
}

export interface OutboundClientOptions {
  allowedHosts: readonly string[];
  /** Deadline for the whole call: connect, headers and body. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** What a body over `maxResponseBytes` does: fail with `too_large` (default) or get cut. */
  onLargeBody?: 'truncate' | 'error';
}

export interface OutboundClient {
  /** POSTs a JSON body; never follows redirects; re-checks every resolved address at connect time (DNS rebinding). */
  postJson(url: string, body: string, headers: Record<string, string>): Promise<OutboundResponse>;
  /** PUTs a JSON body, with the same guarantees as `postJson` (Matrix sends are PUTs). */
  putJson(url: string, body: string, headers: Record<string, string>): Promise<OutboundResponse>;
  /** GETs a JSON resource (`accept: application/json`) with the same guarantees as `postJson`. */
  getJson(url: string, headers: Record<string, string>): Promise<OutboundResponse>;
  /** GETs a page (`accept` HTML and text first) with the same guarantees. */
  getText(url: string, headers: Record<string, string>): Promise<OutboundResponse>;
  /**
   * POSTs raw bytes (`content-type` given in `headers`) with a `Content-Length`, the same
   * guarantees as `postJson` (a Matrix media upload).
   */
  postBytes(url: string, body: Buffer, headers: Record<string, string>): Promise<OutboundResponse>;
  /**
   * GETs a file whole, following up to `maxRedirects` redirects itself: every target is parsed
   * and its addresses checked at connect time as the first URL's were, so a redirect to a
   * private address is refused without a request to it.
   */
  fetchBytes(url: string, options: FetchBytesOptions): Promise<FetchedBytes>;
  close(): Promise<void>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Raised inside the connector; recognised again when undici hands it back. */
class ForbiddenAddressError extends Error {
  constructor(host: string) {
    super(`${host} is not a public address`);
    this.name = 'ForbiddenAddressError';
  }
}

/**
 * One pooled undici Agent per client (create one per process and per policy, not per call). The
 * address policy is enforced where the socket is opened, so the address checked is the address
 * connected to: a name that resolved to a public address when the URL was stored but resolves to
 * a private one now is refused.
 */
export function createOutboundClient(options: OutboundClientOptions): OutboundClient {
  const { allowedHosts, timeoutMs, maxResponseBytes } = options;
  const onLargeBody = options.onLargeBody ?? 'error';
  const agent = new Agent({
    connect: guardedConnector(allowedHosts, timeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  interface Sent {
    status: number;
    headers: Record<string, string>;
    bytes: Buffer;
    truncated: boolean;
    url: URL;
  }

  /** One request, no redirects followed; the body read up to `limit` bytes. */
  async function exchange(
    url: string,
    method: 'GET' | 'POST' | 'PUT',
    body: string | Buffer | undefined,
    headers: Record<string, string>,
    limit: number,
    signal: AbortSignal,
  ): Promise<Sent> {
    const parsed = parseOutboundUrl(url, allowedHosts);
    if ('reason' in parsed) throw new OutboundError('invalid_url', `url: ${parsed.reason}`);
    // `request` never follows redirects (undici 7 only does with the redirect interceptor).
    const response = await request(parsed.url, {
      method,
      dispatcher: agent,
      signal,
      body,
      headers: {
        'user-agent': OUTBOUND_USER_AGENT,
        ...(body === undefined ? { accept: 'application/json' } : {}),
        ...lowercaseKeys(headers),
        ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}),
        ...(Buffer.isBuffer(body) ? { 'content-length': String(body.length) } : {}),
      },
    });
    const read = await readLimited(response.body, limit);
    return {
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      bytes: read.bytes,
      truncated: read.truncated,
      url: parsed.url,
    };
  }

  async function send(
    url: string,
    method: 'GET' | 'POST' | 'PUT',
    body: string | Buffer | undefined,
    headers: Record<string, string>,
  ): Promise<OutboundResponse> {
    const started = performance.now();
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const sent = await exchange(url, method, body, headers, maxResponseBytes, signal);
      if (sent.truncated && onLargeBody === 'error') {
        throw new OutboundError('too_large', `response body exceeds ${maxResponseBytes} bytes`);
      }
      return {
        status: sent.status,
        headers: sent.headers,
        body: sent.bytes.toString('utf8'),
        truncated: sent.truncated,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      throw toOutboundError(error, signal, timeoutMs);
    }
  }

  async function fetchBytes(url: string, options: FetchBytesOptions): Promise<FetchedBytes> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      let target = url;
      for (let hop = 0; ; hop++) {
        const sent = await exchange(
          target,
          'GET',
          undefined,
          { accept: '*/*', ...options.headers },
          options.maxBytes,
          signal,
        );
        const location = sent.headers.location;
        if (REDIRECTS.has(sent.status) && location !== undefined) {
          if (hop >= options.maxRedirects) {
            throw new OutboundError(
              'too_many_redirects',
              `more than ${options.maxRedirects} redirects`,
            );
          }
          target = new URL(location, sent.url).toString();
          continue;
        }
        if (sent.truncated) {
          throw new OutboundError('too_large', `the file exceeds ${options.maxBytes} bytes`);
        }
        return { status: sent.status, headers: sent.headers, bytes: sent.bytes, url: target };
      }
    } catch (error) {
      throw toOutboundError(error, signal, timeoutMs);
    }
  }

  return {
    postJson: (url, body, headers) => send(url, 'POST', body, headers),
    putJson: (url, body, headers) => send(url, 'PUT', body, headers),
    getJson: (url, headers) => send(url, 'GET', undefined, headers),
    getText: (url, headers) =>
      send(url, 'GET', undefined, {
        accept: 'text/html, text/plain;q=0.9, */*;q=0.1',
        ...headers,
      }),
    postBytes: (url, body, headers) => send(url, 'POST', body, headers),
    fetchBytes,
    close: () => agent.close(),
  };
}

/** The connector undici opens sockets with: IP literals are judged here, names in `lookup`. */
function guardedConnector(
  allowedHosts: readonly string[],
  timeoutMs: number,
): buildConnector.connector {
  const connect = buildConnector({ timeout: timeoutMs, lookup: guardedLookup(allowedHosts) });
  return (target, callback) => {
    // Node skips `lookup` for IP literals (verified by the integration test), so check them here.
    const { hostname } = target;
    if (
      isIP(hostname) !== 0 &&
      !isAllowedHost(hostname, allowedHosts) &&
      isForbiddenAddress(hostname)
    ) {
      callback(new ForbiddenAddressError(hostname), null);
      return;
    }
    connect(target, callback);
  };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `dns.lookup` replacement for net/tls.connect that refuses the connection when any address
 * of a host outside the allow-list is forbidden (as `checkOutboundUrl` does when a URL is stored).
 * Node calls it with `all: true` when it races address families, so both shapes are answered.
 */
function guardedLookup(allowedHosts: readonly string[]) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const first = addresses[0];
      if (!first) {
        return callback(Object.assign(new Error('no addresses'), { code: 'ENOTFOUND' }), []);
      }
      const checked = !isAllowedHost(hostname, allowedHosts);
      if (checked && addresses.some((entry) => isForbiddenAddress(entry.address))) {
        return callback(new ForbiddenAddressError(hostname), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  limit: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > limit) {
      chunks.push(chunk.subarray(0, limit - size));
      // Stop reading; undici drops the connection rather than drain an unbounded body.
      body.destroy();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

function toOutboundError(error: unknown, signal: AbortSignal, timeoutMs: number): OutboundError {
  if (error instanceof OutboundError) return error;
  if (findCause(error, (cause) => cause instanceof ForbiddenAddressError)) {
    return new OutboundError('forbidden_address', 'host is not a public address', { cause: error });
  }
  if (
    signal.aborted ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  ) {
    return new OutboundError('timeout', `no complete response within ${timeoutMs} ms`, {
      cause: error,
    });
  }
  return new OutboundError('network', networkMessage(error), { cause: error });
}

/** A short, owner-safe description of a connection failure (no addresses, no stack). */
function networkMessage(error: unknown): string {
  const codes = new Set<string>();
  findCause(error, (cause) => {
    const code = errorCode(cause);
    if (code) codes.add(code);
    return false;
  });
  if (codes.has('ECONNREFUSED')) return 'connection refused';
  if (codes.has('ENOTFOUND') || codes.has('EAI_AGAIN')) return 'host does not resolve';
  if (codes.has('EHOSTUNREACH') || codes.has('ENETUNREACH')) return 'host unreachable';
  if ([...codes].some((code) => /CERT|SSL|TLS/.test(code))) return 'TLS handshake failed';
  if (codes.has('ECONNRESET') || codes.has('UND_ERR_SOCKET')) {
    return 'connection closed by the server';
  }
  return 'connection failed';
}

function errorCode(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('code' in value)) return undefined;
  return typeof value.code === 'string' ? value.code : undefined;
}

/** The error itself or one of its causes (undici wraps some errors) that matches. */
function findCause(error: unknown, matches: (cause: unknown) => boolean): unknown {
  let current = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    if (matches(current)) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

function lowercaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
