import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DELIVERY_BODY_LIMIT_BYTES, DELIVERY_TIMEOUT_MS } from '../../shared/webhooks/events';
import {
  createOutboundClient,
  OutboundError,
  type OutboundClient,
} from '../../shared/net/outbound-client';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * SSRF (issue 6, docs/spec/contract.md §7): with no host allow-listed, a webhook URL aimed at loopback,
 * private, link-local, metadata, IPv4-mapped or decimal-IP addresses, at a name resolving to
 * one, or not using https is refused when it is stored; the outbound client that delivers
 * refuses the same addresses at connect time; and a receiver's redirect is never followed.
 */

const MATRIX: [label: string, url: string, reason: string][] = [
  ['loopback', 'https://127.0.0.1/', 'host is not a public address'],
  ['10/8', 'https://10.0.0.1/', 'host is not a public address'],
  ['172.16/12', 'https://172.16.0.1/', 'host is not a public address'],
  ['192.168/16', 'https://192.168.1.1/', 'host is not a public address'],
  ['metadata', 'https://169.254.169.254/latest/meta-data/', 'host is not a public address'],
  ['IPv6 loopback', 'https://[::1]/', 'host is not a public address'],
  ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/', 'host is not a public address'],
  ['decimal IP', 'https://2130706433/', 'host is not a public address'],
  ['name resolving to loopback', 'https://localhost/', 'host is not a public address'],
  ['plain http', 'http://example.com/', 'must use https'],
];

let owner: SignedIn;

const strict = useTestApp({ env: { ...UNLIMITED_RATES, WEBHOOK_ALLOWED_HOSTS: '' } });
beforeAll(async () => {
  owner = await signIn(strict.app);
});

describe('POST /me/webhooks with nothing allow-listed', () => {
  it.each(MATRIX)('refuses %s (%s): 400 invalid_url naming the field', async (_, url, reason) => {
    const response = await strict.app.inject({
      method: 'POST',
      url: '/me/webhooks',
      headers: { cookie: owner.cookie },
      payload: { url },
    });
    expect({ status: response.statusCode, body: response.json() }).toEqual({
      status: 400,
      body: { error: { code: 'invalid_url', message: `url: ${reason}` } },
    });
  });

  it('stored none of them', async () => {
    expect(await strict.ctx.sql('select id from webhooks')).toEqual([]);
  });
});

describe('the delivery client with nothing allow-listed', () => {
  let client: OutboundClient;
  beforeAll(() => {
    client = createOutboundClient({
      allowedHosts: strict.ctx.config.webhookAllowedHosts,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxResponseBytes: DELIVERY_BODY_LIMIT_BYTES,
      onLargeBody: 'truncate',
    });
  });
  afterAll(async () => client.close());

  // What was stored while DNS said "public" is judged again where the socket opens.
  it.each(MATRIX.filter(([, url]) => url.startsWith('https:')))(
    'refuses %s at connect time',
    async (_, url) => {
      const error = await client.postJson(url, '{}', {}).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(OutboundError);
      expect((error as OutboundError).kind).toBe('forbidden_address');
    },
  );
});

interface Receiver {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** A receiver on loopback that answers every request with a redirect to `location`. */
async function redirectingReceiver(location: (port: number) => string): Promise<Receiver> {
  const hits: string[] = [];
  let port = 0;
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    request.resume();
    request.on('end', () => {
      response.writeHead(302, { location: location(port) });
      response.end('moved');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a redirect from an allow-listed receiver (default development hosts)', () => {
  let client: OutboundClient;
  const relaxed = useTestApp({ env: UNLIMITED_RATES, beforeClose: () => client?.close() });
  beforeAll(() => {
    client = createOutboundClient({
      allowedHosts: relaxed.ctx.config.webhookAllowedHosts,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxResponseBytes: DELIVERY_BODY_LIMIT_BYTES,
      onLargeBody: 'truncate',
    });
  });

  it('the loopback receiver is accepted as a webhook URL there', async () => {
    const api = relaxed.app;
    const session = await signIn(api);

    const receiver = await redirectingReceiver(() => 'http://169.254.169.254/');
    try {
      const response = await api.inject({
        method: 'POST',
        url: '/me/webhooks',
        headers: { cookie: session.cookie },
        payload: { url: receiver.url },
      });
      expect(response.statusCode).toBe(201);
      expect(receiver.hits).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('302 to the metadata address: the 302 itself is the result', async () => {
    const receiver = await redirectingReceiver(() => 'http://169.254.169.254/latest/meta-data/');
    try {
      const result = await client.postJson(receiver.url, '{"event":"ping"}', {});
      expect(result).toMatchObject({
        status: 302,
        body: 'moved',
        headers: expect.objectContaining({ location: 'http://169.254.169.254/latest/meta-data/' }),
      });
      expect(receiver.hits).toEqual(['/hook']);
    } finally {
      await receiver.close();
    }
  });

  it('302 back to the receiver itself: still one request, so no redirect is ever followed', async () => {
    const receiver = await redirectingReceiver((port) => `http://127.0.0.1:${port}/followed`);
    try {
      const result = await client.postJson(receiver.url, '{}', {});
      expect(result.status).toBe(302);
      expect(receiver.hits).toEqual(['/hook']);
    } finally {
      await receiver.close();
    }
  });
});
