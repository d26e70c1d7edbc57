import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createPlatformClient,
  type ErrorEnvelope,
  type PlatformClient,
  type Schemas,
} from '../../client';
import { signIn, type SignedIn } from '../helpers/auth';
import { UNLIMITED_RATES, useTestApp } from '../helpers/context';

/**
 * The generated client (client/) against a real server on a real port: API keys created,
 * listed, used, metered and revoked through openapi-fetch with the generated types, asserting
 * what keys.test.ts asserts of the same calls over inject(). The server runs with
 * NODE_ENV=production, as the client's document is generated (scripts/client-generate.ts).
 */

const KEY_FORMAT = /^svc_live_[0-9a-f]{64}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const test = useTestApp({
  env: {
    ...UNLIMITED_RATES,
    NODE_ENV: 'production',
    JWT_SECRET: randomBytes(32).toString('hex'),
    API_KEY_PEPPER: randomBytes(32).toString('hex'),
  },
});
let baseUrl: string;
let alice: SignedIn;
let bob: SignedIn;
/** Alice's session client: her cookie on every request. */
let aliceApi: PlatformClient;

beforeAll(async () => {
  baseUrl = await test.app.listen({ port: 0, host: '127.0.0.1' });
  alice = await signIn(test.app);
  bob = await signIn(test.app);
  aliceApi = createPlatformClient({ baseUrl, sessionCookie: alice.cookie });
});

/** Fails with the typed error envelope when a call that should succeed did not. */
function ok<Data>(result: { data?: Data; error?: ErrorEnvelope; response: Response }): Data {
  if (result.error !== undefined || result.data === undefined) {
    throw new Error(`${result.response.status}: ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

async function createKey(body: { name: string; rate_limit_rpm?: number }) {
  const result = await aliceApi.POST('/me/api-keys', { body });
  expect(result.response.status).toBe(201);
  return ok(result);
}

it('the committed client/openapi.json is the document this server (production) serves', async () => {
  const served: unknown = await (await fetch(`${baseUrl}/openapi.json`)).json();
  const committed: unknown = JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'client', 'openapi.json'), 'utf8'),
  );
  expect(served).toEqual(committed);
});

it('POST /me/api-keys creates a key shown once, in the decided shape, no-store', async () => {
  const { data, response } = await aliceApi.POST('/me/api-keys', {
    body: { name: 'deploy bot' },
  });
  expect(response.status).toBe(201);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const created: Schemas['ApiKeyWithSecret'] = data!;
  expect(created).toEqual({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    key: expect.stringMatching(KEY_FORMAT),
    prefix: created.key.slice(0, 12),
    name: 'deploy bot',
    rate_limit_rpm: 60,
    spend_limit_flow: null,
    spend_period: 'month',
    spend_period_used: 0,
    spend_period_resets_at: expect.stringMatching(ISO),
    last_used_at: null,
    created_at: expect.stringMatching(ISO),
    revoked: false,
    expires_at: null,
  });
});

it('GET /me/api-keys lists the owner’s active keys without secrets', async () => {
  const created = await createKey({ name: 'listed' });
  const { data, response } = await aliceApi.GET('/me/api-keys');
  expect(response.status).toBe(200);
  const items = data!.items;
  expect(items.map((item) => item.id)).toContain(created.id);
  for (const item of items) expect(item).not.toHaveProperty('key');
  // A key authenticates as its owner; Bob's list (through his own key) has none of Alice's.
  const bobs = await createPlatformClient({ baseUrl, sessionCookie: bob.cookie }).POST(
    '/me/api-keys',
    { body: { name: 'bob key' } },
  );
  const bobApi = createPlatformClient({ baseUrl, apiKey: ok(bobs).key });
  expect(ok(await bobApi.GET('/me')).id).toBe(bob.userId);
  const bobsList = ok(await bobApi.GET('/me/api-keys')).items.map((item) => item.id);
  expect(bobsList).toContain(ok(bobs).id);
  expect(bobsList).not.toContain(created.id);
});

it('GET /me/api-keys/{id}/usage reports what the key did', async () => {
  const created = await createKey({ name: 'metered' });
  const keyApi = createPlatformClient({ baseUrl, apiKey: created.key });
  for (let i = 0; i < 5; i++) expect((await keyApi.GET('/me')).response.status).toBe(200);
  const badBody = await keyApi.POST('/me/api-keys', { body: { name: '' } });
  expect(badBody.response.status).toBe(400);
  // Session requests are not key usage.
  expect((await aliceApi.GET('/me')).response.status).toBe(200);

  const { data: usage, response } = await aliceApi.GET('/me/api-keys/{id}/usage', {
    params: { path: { id: created.id }, query: { since: 'day' } },
  });
  expect(response.status).toBe(200);
  expect(usage).toMatchObject({ since: 'day', requests: 6, errors: 1, flow_spent: 0 });
  expect(Date.parse(usage!.to) - Date.parse(usage!.from)).toBe(86_400_000);
  expect(usage!.by_model).toEqual([]);
  expect(usage!.by_endpoint).toEqual([
    { method: 'GET', route: '/me', requests: 5 },
    { method: 'POST', route: '/me/api-keys', requests: 1 },
  ]);

  const listed = ok(await aliceApi.GET('/me/api-keys')).items.find(
    (item) => item.id === created.id,
  );
  expect(Date.parse(listed?.last_used_at ?? '')).toBeGreaterThan(
    Date.parse(listed?.created_at ?? ''),
  );
});

it('DELETE /me/api-keys/{id} revokes softly: 204, then the key is 401 and gone from the list', async () => {
  const created = await createKey({ name: 'to revoke' });
  const keyApi = createPlatformClient({ baseUrl, apiKey: created.key });
  expect((await keyApi.GET('/me')).response.status).toBe(200);

  const revoked = await aliceApi.DELETE('/me/api-keys/{id}', {
    params: { path: { id: created.id } },
  });
  expect(revoked.response.status).toBe(204);
  expect(revoked.data).toBeUndefined();
  expect(revoked.error).toBeUndefined();

  const refused = await keyApi.GET('/me');
  expect(refused.response.status).toBe(401);
  expect(refused.error).toEqual({
    error: { code: 'invalid_api_key', message: expect.any(String) },
  });
  const ids = ok(await aliceApi.GET('/me/api-keys')).items.map((item) => item.id);
  expect(ids).not.toContain(created.id);

  const again = await aliceApi.DELETE('/me/api-keys/{id}', {
    params: { path: { id: created.id } },
  });
  expect(again.response.status).toBe(404);
  expect(again.error?.error.code).toBe('api_key_not_found');
});

it('errors arrive as the typed envelope: a refused body and a missing credential', async () => {
  const refused = await aliceApi.POST('/me/api-keys', { body: { name: '' } });
  expect(refused.data).toBeUndefined();
  expect(refused.response.status).toBe(400);
  // `error` is typed from the document's 4XX response: ErrorEnvelope, no cast needed.
  const envelope: ErrorEnvelope | undefined = refused.error;
  expect(envelope).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
  expect(envelope?.error.message).toContain('name: must be 1 to 64 characters');

  const anonymous = await createPlatformClient({ baseUrl }).POST('/me/api-keys', {
    body: { name: 'nobody' },
  });
  expect(anonymous.response.status).toBe(401);
  expect(anonymous.error).toEqual({
    error: { code: 'unauthenticated', message: expect.any(String) },
  });
});
