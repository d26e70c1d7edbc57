/** The error bodies of the API, asserted whole: one helper per envelope, used by every test. */

interface Reply {
  statusCode: number;
  headers: Record<string, unknown>;
  json<T = unknown>(): T;
}

/** A message as given: a string exactly, a RegExp matched; else any non-empty string. */
function messageMatcher(message: string | RegExp | undefined): unknown {
  if (message === undefined) return expect.stringMatching(/\S/);
  return typeof message === 'string' ? message : expect.stringMatching(message);
}

/**
 * `response` is `status`, JSON, with the main API's envelope (docs/guides/errors.md) and
 * nothing else in the body: `{"error": {"code", "message"}}`. `message` is compared exactly
 * when a string and matched when a RegExp; without it any non-empty message passes. One
 * `toEqual`, so a failure shows status, content type and body side by side. Returns the message.
 */
export function expectError(
  response: Reply,
  status: number,
  code: string,
  message?: string | RegExp,
): string {
  const body = response.json<{ error: { message: string } }>();
  expect({
    status: response.statusCode,
    contentType: response.headers['content-type'],
    body,
  }).toEqual({
    status,
    contentType: expect.stringMatching(/^application\/json/),
    body: { error: { code, message: messageMatcher(message) } },
  });
  return body.error.message;
}

/**
 * The bot gateway's own body (docs/bot-gateway.md), `{"error": "<code>", "detail": "..."}` and
 * nothing else; `detail` is compared as `expectError` compares a message.
 */
export function expectBotError(
  response: Reply,
  status: number,
  error: string,
  detail?: string | RegExp,
): void {
  expect({
    status: response.statusCode,
    contentType: response.headers['content-type'],
    body: response.json(),
  }).toEqual({
    status,
    contentType: expect.stringMatching(/^application\/json/),
    body: { error, detail: messageMatcher(detail) },
  });
}
