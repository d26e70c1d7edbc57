import { useTestApp } from '../helpers/context';
import { expectError } from '../helpers/errors';
import { probeRoutes } from '../helpers/probe-routes';

const test = useTestApp({ plugins: [probeRoutes] });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('generic error envelope', () => {
  it('answers an unknown route with 404 not_found', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/no/such/route?x=1' });
    const message = expectError(response, 404, 'not_found');
    expect(message).toBe('route: GET /no/such/route does not exist');

    const huge = await test.app.inject({ method: 'GET', url: `/${'a'.repeat(5000)}` });
    expect(expectError(huge, 404, 'not_found').length).toBeLessThan(300);
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await test.app.inject({ method: 'DELETE', url: '/healthz' });
    expectError(response, 405, 'method_not_allowed');
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/__probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "a",',
    });
    expectError(response, 400, 'invalid_json');
  });

  it('answers an empty JSON body with 400 invalid_json', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/__probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expectError(response, 400, 'invalid_json');
  });

  it('refuses prototype poisoning as invalid_json', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/__probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"a","__proto__":{"admin":true}}',
    });
    expectError(response, 400, 'invalid_json');
  });

  it('answers a non-JSON content type with 415', async () => {
    for (const contentType of [
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await test.app.inject({
        method: 'POST',
        url: '/__probe/echo',
        headers: { 'content-type': contentType },
        payload: 'name=a',
      });
      expectError(response, 415, 'unsupported_media_type');
    }
  });

  it('answers an oversized body with 413', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/__probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(test.ctx.config.bodyLimitBytes + 1) }),
    });
    expectError(response, 413, 'payload_too_large');
  });

  it('names the offending field in 400 invalid_request', async () => {
    const tooLong = await test.app.inject({
      method: 'POST',
      url: '/__probe/echo',
      payload: { name: 'x'.repeat(65) },
    });
    expect(expectError(tooLong, 400, 'invalid_request')).toBe('name: must be 1 to 64 characters');

    const missing = await test.app.inject({ method: 'POST', url: '/__probe/echo', payload: {} });
    expect(expectError(missing, 400, 'invalid_request')).toBe('name: is required');

    const wrongType = await test.app.inject({
      method: 'POST',
      url: '/__probe/echo',
      payload: { name: 'a', count: 'three' },
    });
    expect(expectError(wrongType, 400, 'invalid_request')).toMatch(/^count: /);

    const badQuery = await test.app.inject({ method: 'GET', url: '/__probe/users?limit=0' });
    expect(expectError(badQuery, 400, 'invalid_request')).toBe('limit: must be at least 1');
  });

  it('refuses unknown body fields (no mass assignment)', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/__probe/echo',
      payload: { name: 'a', isAdmin: true },
    });
    expect(expectError(response, 400, 'invalid_request')).toBe('isAdmin: is not a known field');
  });

  it('refuses a body that is not an object', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/__probe/echo',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(expectError(response, 400, 'invalid_request')).toMatch(/^body: /);
  });

  it('answers a crash with 500 internal_error and leaks nothing', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/__probe/boom' });
    const message = expectError(response, 500, 'internal_error');
    expect(message).toBe('Internal server error');
    expect(response.body).not.toMatch(/select|password|secret|stack|at \//i);

    const logged = test.ctx.logs.filter(
      (line) => line.requestId === response.headers['x-request-id'],
    );
    expect(logged).toContainEqual(expect.objectContaining({ level: 50, msg: 'request failed' }));
  });

  it('answers a malformed URL with an envelope, not a crash', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/__probe/users?limit=%E0%A4%A' });
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toHaveProperty('error.code');
  });
});

describe('x-request-id', () => {
  it('is on every response, generated when absent', async () => {
    const ok = await test.app.inject({ method: 'GET', url: '/healthz' });
    const missing = await test.app.inject({ method: 'GET', url: '/nope' });
    const crash = await test.app.inject({ method: 'GET', url: '/__probe/boom' });
    for (const response of [ok, missing, crash]) {
      expect(response.headers['x-request-id']).toMatch(UUID);
    }
    expect(ok.headers['x-request-id']).not.toBe(missing.headers['x-request-id']);
  });

  it('echoes a safe caller id and replaces an unsafe one', async () => {
    const kept = await test.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'client-trace.42' },
    });
    expect(kept.headers['x-request-id']).toBe('client-trace.42');

    const replaced = await test.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    expect(replaced.headers['x-request-id']).toMatch(UUID);
  });

  it('labels every log line of a request with it', async () => {
    await test.app.inject({
      method: 'GET',
      url: '/nope',
      headers: { 'x-request-id': 'trace-xyz' },
    });
    const lines = test.ctx.logs.filter((line) => line.requestId === 'trace-xyz');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.every((line) => typeof line.time === 'number')).toBe(true);
  });
});
