import type { App } from '../../api/app';
import { createKey, signIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * Every operation in the OpenAPI document, hit with malformed input: the answer is never a
 * 5xx, and every 4xx is exactly the error envelope. New routes are covered automatically.
 */
const BOT_TOKEN = 'bot-token-for-bad-input-0123456789';
const test = useTestApp({ env: { ...UNLIMITED_RATES, BOT_TOKENS: BOT_TOKEN } });

const JUNK_SEGMENTS = ['x'.repeat(300), '%00', '..%2F..%2Fetc', '%E0%A4%A', '-1', '1e309'];
const JUNK_QUERIES = [
  'limit=-1',
  'limit=abc&cursor=%%%',
  'cursor=' + 'A'.repeat(3000),
  'a[b][c]=1&a=2',
  'q=' + encodeURIComponent("' or 1=1 --"),
];
const JUNK_BODIES: { contentType: string; payload: string }[] = [
  { contentType: 'application/json', payload: '{' },
  { contentType: 'application/json', payload: '[]' },
  { contentType: 'application/json', payload: 'null' },
  { contentType: 'application/json', payload: '"string"' },
  { contentType: 'application/json', payload: '{"__proto__":{"x":1}}' },
  { contentType: 'application/json', payload: '{"unknown":1,"name":{"$gt":""}}' },
  { contentType: 'application/json', payload: JSON.stringify({ n: 1e308, s: '\u0000\ud800' }) },
  { contentType: 'text/plain', payload: 'hello' },
  { contentType: 'application/x-www-form-urlencoded', payload: 'a=1' },
];

type Operation = { responses?: Record<string, { content?: Record<string, unknown> }> };

/**
 * Every operation of the document, but an event stream with nothing in its path to get wrong
 * (the firehose `GET /tokens/stream`): any request to it is a valid one, which streams until
 * the client leaves, and `inject` would wait for it forever. Its ids and resets have tests of
 * their own (test/integration/market-stream.test.ts).
 */
function operations(document: { paths: Record<string, Record<string, Operation>> }) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(
        ([, operation]) =>
          path.includes('{') || !operation.responses?.['200']?.content?.['text/event-stream'],
      )
      .map(([method]) => ({ method: method.toUpperCase(), path })),
  );
}

/** The bot gateway's own error body: `{"error":"<code>","detail":"..."}` (or just `error`). */
function expectBotErrorShape(response: Awaited<ReturnType<App['inject']>>, label: string) {
  const body = response.json<Record<string, unknown>>();
  // A read with nothing wrong in it (GET /api/v1/rooms?foo=bar) reaches the homeserver, and
  // this app has none: 502 send_failed saying so is the right answer, not a crash.
  const noHomeserver =
    response.statusCode === 502 &&
    body.error === 'send_failed' &&
    /no Matrix homeserver is configured/i.test(String(body.detail));
  if (response.statusCode >= 500 && !noHomeserver) {
    throw new Error(`${label} answered ${response.statusCode}`);
  }
  const keys = Object.keys(body).sort().join();
  if (typeof body.error !== 'string' || (keys !== 'detail,error' && keys !== 'error')) {
    throw new Error(`${label} answered ${response.statusCode} ${response.body}`);
  }
  expect(response.body).not.toMatch(/\n\s+at /);
}

function expectNoServerError(response: Awaited<ReturnType<App['inject']>>, label: string) {
  if (label.split(' ')[1]?.startsWith('/api/v1/') && response.statusCode >= 400) {
    return expectBotErrorShape(response, label);
  }
  // 503 with Retry-After is what a route answers while the state it serves is not there yet
  // (`/dexscreener/latest-block` before the chain's first final block): the envelope is checked
  // below like any 4xx. Any other 5xx fails.
  const notReady = response.statusCode === 503 && response.headers['retry-after'] !== undefined;
  if (response.statusCode >= 500 && !notReady) {
    throw new Error(`${label} answered ${response.statusCode}`);
  }
  if (response.statusCode >= 400) {
    const body = response.json();
    if (Object.keys(body).join() !== 'error') {
      throw new Error(`${label} answered ${response.statusCode} ${response.body}`);
    }
    expect(typeof body.error.code).toBe('string');
    expect(typeof body.error.message).toBe('string');
    expect(response.body).not.toMatch(/\n\s+at /); // no stack trace
  }
}

async function sweep(credentials: Record<string, string>) {
  const document = (await test.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const ops = operations(document);
  expect(ops.length).toBeGreaterThan(0);
  let requests = 0;
  for (const { method, path } of ops) {
    const concrete = (segment: string) => path.replace(/\{[^}]+\}/g, segment);
    const urls = [
      concrete('x'),
      ...JUNK_SEGMENTS.map(concrete),
      ...JUNK_QUERIES.map((q) => `${concrete('x')}?${q}`),
    ];
    for (const url of new Set(urls)) {
      const response = await test.app.inject({
        method: method as 'GET',
        url,
        headers: credentials,
      });
      expectNoServerError(response, `${method} ${url}`);
      requests++;
    }
    if (method === 'GET' || method === 'HEAD') continue;
    for (const { contentType, payload } of JUNK_BODIES) {
      const response = await test.app.inject({
        method: method as 'POST',
        url: concrete('x'),
        headers: { ...credentials, 'content-type': contentType },
        payload,
      });
      expectNoServerError(
        response,
        `${method} ${path} with ${contentType} ${payload.slice(0, 20)}`,
      );
      requests++;
    }
  }
  expect(requests).toBeGreaterThan(ops.length);
}

it('no malformed request makes any operation fail with 5xx or leave the envelope', async () => {
  await sweep({});
});

it('the same holds for an authenticated caller, whose requests reach validation', async () => {
  const session = await signIn(test.app);
  const { key } = await createKey(test.app, session);
  await sweep({ 'x-api-key': key });
  await sweep({ cookie: session.cookie });
  // The bot gateway's token: its requests reach validation (no homeserver is configured,
  // and none of the junk is a valid body).
  await sweep({ 'x-service-bot-token': BOT_TOKEN });
});
