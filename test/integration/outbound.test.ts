import {
  createServer,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createOutboundClient,
  OutboundError,
  type OutboundClient,
  type OutboundClientOptions,
  type OutboundErrorKind,
} from '../../shared/net/outbound-client';

/**
 * The outbound HTTP client agent calls and webhooks use (docs/spec/contract.md §7), against real HTTP servers
 * on loopback: address policy at connect time, no redirects, deadline, body limit.
 */

interface Hit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  port: number;
  url(path?: string): string;
  hits: Hit[];
  /** TCP connections accepted, to prove a refused call never reached the server at all. */
  connections: number;
}

const servers: Server[] = [];
const clients: OutboundClient[] = [];

async function startServer(handler: RequestListener): Promise<TestServer> {
  const server = createServer();
  const state: TestServer = {
    port: 0,
    url: (path = '/') => `http://127.0.0.1:${state.port}${path}`,
    hits: [],
    connections: 0,
  };
  server.on('connection', () => (state.connections += 1));
  server.on('request', (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { method = '', url = '', headers } = request;
      state.hits.push({ method, url, headers, body: Buffer.concat(chunks).toString('utf8') });
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  servers.push(server);
  return state;
}

function client(overrides: Partial<OutboundClientOptions> = {}): OutboundClient {
  const created = createOutboundClient({
    allowedHosts: ['127.0.0.1', 'localhost'],
    timeoutMs: 2_000,
    maxResponseBytes: 64 * 1024,
    ...overrides,
  });
  clients.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof OutboundError))
    throw new Error(`expected an OutboundError, got ${String(error)}`);
  return error;
}

function expectKind(error: OutboundError, kind: OutboundErrorKind, message?: string): void {
  expect(error.kind).toBe(kind);
  if (message !== undefined) expect(error.message).toBe(message);
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((each) => each.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const ok: RequestListener = (_request, response) => {
  response.writeHead(201, { 'content-type': 'application/json', 'x-reply': 'yes' });
  response.end('{"ok":true}');
};

describe('allow-listed hosts', () => {
  it('POSTs the exact body and headers and returns status, headers and body', async () => {
    const server = await startServer(ok);
    const body = '{"event":"ping","n":1}';
    const response = await client().postJson(server.url('/hook?a=1'), body, {
      'X-Service-Signature': 't=1,v1=abc',
      'Content-Type': 'text/plain',
    });

    expect(response).toEqual({
      status: 201,
      headers: expect.objectContaining({ 'content-type': 'application/json', 'x-reply': 'yes' }),
      body: '{"ok":true}',
      truncated: false,
      durationMs: expect.any(Number),
    });
    expect(server.hits).toHaveLength(1);
    const [hit] = server.hits;
    expect(hit).toMatchObject({ method: 'POST', url: '/hook?a=1', body });
    // The caller's headers arrive; the content type is always JSON.
    expect(hit?.headers).toMatchObject({
      'x-service-signature': 't=1,v1=abc',
      'content-type': 'application/json',
      'user-agent': 'agent-platform/0.1',
      'content-length': String(Buffer.byteLength(body)),
    });
  });

  it('reaches an allow-listed name (localhost) through the guarded lookup', async () => {
    const server = await startServer(ok);
    const response = await client().postJson(`http://localhost:${server.port}/`, '{}', {});
    expect(response.status).toBe(201);
    expect(server.hits).toHaveLength(1);
  });

  it('keeps connections alive between calls', async () => {
    const server = await startServer(ok);
    const outbound = client();
    for (let call = 0; call < 5; call += 1) await outbound.postJson(server.url(), '{}', {});
    expect(server.hits).toHaveLength(5);
    // Back-to-back calls may open a second socket before the first is back in the pool.
    expect(server.connections).toBeLessThanOrEqual(2);
  });
});

describe('address policy at call and connect time', () => {
  it('refuses a loopback IP literal when not allow-listed, without opening a connection', async () => {
    const server = await startServer(ok);
    const error = await failure(
      client({ allowedHosts: [] }).postJson(`https://127.0.0.1:${server.port}/`, '{}', {}),
    );
    expectKind(error, 'forbidden_address', 'host is not a public address');
    expect(server.connections).toBe(0);
    expect(server.hits).toHaveLength(0);
  });

  it('refuses an IPv6 loopback literal when not allow-listed', async () => {
    const error = await failure(
      client({ allowedHosts: [] }).postJson('https://[::1]:9/', '{}', {}),
    );
    expectKind(error, 'forbidden_address');
  });

  it('refuses a name that resolves to a loopback address when not allow-listed', async () => {
    const server = await startServer(ok);
    const outbound = client({ allowedHosts: ['127.0.0.1'] });
    const error = await failure(outbound.postJson(`https://localhost:${server.port}/`, '{}', {}));
    expectKind(error, 'forbidden_address', 'host is not a public address');
    expect(server.connections).toBe(0);
  });

  it('refuses plain http to a host that is not allow-listed before connecting', async () => {
    const server = await startServer(ok);
    const error = await failure(client({ allowedHosts: [] }).postJson(server.url(), '{}', {}));
    expectKind(error, 'invalid_url', 'url: must use https');
    expect(server.connections).toBe(0);
  });

  it.each([
    ['ftp://127.0.0.1/x', 'url: must use https'],
    ['http://user:pw@127.0.0.1:9/', 'url: must not contain credentials'],
    ['not a url', 'url: must be an absolute URL'],
  ])('refuses %s with invalid_url', async (url, message) => {
    expectKind(await failure(client().postJson(url, '{}', {})), 'invalid_url', message);
  });
});

describe('responses', () => {
  it('returns a redirect as is and does not follow it', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      response.end();
    });
    const response = await client().postJson(server.url('/start'), '{}', {});
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('http://169.254.169.254/latest/meta-data/');
    expect(server.hits.map((hit) => hit.url)).toEqual(['/start']);
  });

  it('gives up with timeout when the server never answers', async () => {
    const server = await startServer(() => undefined);
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 300 }).postJson(server.url(), '{}', {}));
    expectKind(error, 'timeout', 'no complete response within 300 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('gives up with timeout when the body stalls after the headers', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"partial":');
    });
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 300 }).postJson(server.url(), '{}', {}));
    expectKind(error, 'timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  const bigBody: RequestListener = (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('x'.repeat(10_000));
  };

  it('fails with too_large when the body exceeds maxResponseBytes', async () => {
    const server = await startServer(bigBody);
    const error = await failure(
      client({ maxResponseBytes: 1024 }).postJson(server.url(), '{}', {}),
    );
    expectKind(error, 'too_large', 'response body exceeds 1024 bytes');
  });

  it('cuts the body at exactly maxResponseBytes in truncate mode', async () => {
    const server = await startServer(bigBody);
    const outbound = client({ maxResponseBytes: 1024, onLargeBody: 'truncate' });
    const response = await outbound.postJson(server.url(), '{}', {});
    expect(response.status).toBe(200);
    expect(response.truncated).toBe(true);
    expect(response.body).toBe('x'.repeat(1024));
  });

  it('accepts a body of exactly maxResponseBytes', async () => {
    const server = await startServer((_request, response) => response.end('y'.repeat(1024)));
    const response = await client({ maxResponseBytes: 1024 }).postJson(server.url(), '{}', {});
    expect(response).toMatchObject({ body: 'y'.repeat(1024), truncated: false });
  });

  it('reports a refused connection as network', async () => {
    const server = await startServer(ok);
    const { port } = server;
    const closing = servers.pop();
    await new Promise((resolve) => closing?.close(resolve));
    const error = await failure(client().postJson(`http://127.0.0.1:${port}/`, '{}', {}));
    expectKind(error, 'network', 'connection refused');
  });

  it('reports a name that does not resolve as network', async () => {
    const error = await failure(client().postJson('https://no-such-host.invalid/', '{}', {}));
    expectKind(error, 'network', 'host does not resolve');
  });

  it('reports a failed TLS handshake as network (https to a plain-http server)', async () => {
    const server = await startServer(ok);
    const error = await failure(client().postJson(`https://127.0.0.1:${server.port}/`, '{}', {}));
    expectKind(error, 'network', 'TLS handshake failed');
    expect(server.hits).toHaveLength(0);
  });

  it('reports a connection the server drops as network', async () => {
    const server = await startServer((request) => request.socket.destroy());
    const error = await failure(client().postJson(server.url(), '{}', {}));
    expectKind(error, 'network', 'connection closed by the server');
  });
});

describe('getJson', () => {
  const json: RequestListener = (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"id":"tx-1","status":"PENDING"}');
  };

  it('GETs with the caller headers, asks for JSON and sends no body', async () => {
    const server = await startServer(json);
    const response = await client().getJson(server.url('/transaction/tx-1?x=1'), {
      'X-MerchantId': 'merchant',
      'X-Secret': 'secret',
    });

    expect(response).toEqual({
      status: 200,
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
      body: '{"id":"tx-1","status":"PENDING"}',
      truncated: false,
      durationMs: expect.any(Number),
    });
    expect(server.hits).toHaveLength(1);
    const [hit] = server.hits;
    expect(hit).toMatchObject({ method: 'GET', url: '/transaction/tx-1?x=1', body: '' });
    expect(hit?.headers).toMatchObject({
      'x-merchantid': 'merchant',
      'x-secret': 'secret',
      accept: 'application/json',
      'user-agent': 'agent-platform/0.1',
    });
    expect(hit?.headers['content-type']).toBeUndefined();
    expect(hit?.headers['content-length']).toBeUndefined();
  });

  it('returns a redirect as is and does not follow it', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' });
      response.end();
    });
    const response = await client().getJson(server.url('/moved'), {});
    expect(response.status).toBe(301);
    expect(server.hits.map((hit) => hit.url)).toEqual(['/moved']);
  });

  it('refuses a loopback literal that is not allow-listed without connecting', async () => {
    const server = await startServer(json);
    const outbound = client({ allowedHosts: [] });
    const error = await failure(outbound.getJson(`https://127.0.0.1:${server.port}/`, {}));
    expectKind(error, 'forbidden_address', 'host is not a public address');
    expect(server.connections).toBe(0);
  });

  it('refuses a name resolving to loopback when not allow-listed (connect-time check)', async () => {
    const server = await startServer(json);
    const outbound = client({ allowedHosts: ['127.0.0.1'] });
    const error = await failure(outbound.getJson(`https://localhost:${server.port}/`, {}));
    expectKind(error, 'forbidden_address');
    expect(server.connections).toBe(0);
  });

  it('keeps the deadline and the size cap', async () => {
    const silent = await startServer(() => undefined);
    const slow = await failure(client({ timeoutMs: 300 }).getJson(silent.url(), {}));
    expectKind(slow, 'timeout', 'no complete response within 300 ms');

    const big = await startServer((_request, response) => response.end('x'.repeat(5_000)));
    const large = await failure(client({ maxResponseBytes: 1024 }).getJson(big.url(), {}));
    expectKind(large, 'too_large', 'response body exceeds 1024 bytes');
  });

  it('refuses an invalid URL before connecting', async () => {
    expectKind(await failure(client().getJson('ftp://127.0.0.1/x', {})), 'invalid_url');
  });
});
