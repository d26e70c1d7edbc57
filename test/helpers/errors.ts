/** The error envelope of the main API (docs/decisions.md "Errors"), exactly. */

interface Reply {
  statusCode: number;
  json<T = unknown>(): T;
}

/** `response` is `status` with `{error: {code, message}}` and nothing else in the body. */
export function expectError(
  response: Reply,
  status: number,
  code: string,
  message?: string | RegExp,
): void {
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status,
    body: { error: { code, message: expect.any(String) } },
  });
  if (message !== undefined) {
    expect(response.json<{ error: { message: string } }>().error.message).toMatch(message);
  }
}
