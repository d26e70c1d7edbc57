import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '../shared/errors';
import { SECURITY_HEADERS } from './plugins/security-headers';

/**
 * Errors Node's HTTP parser raises before there is a request for Fastify to route: a request
 * line or headers too large, a malformed request, a method Node does not know, a request not
 * received within `requestTimeout`. They are written straight to the socket, so they get the
 * envelope, a fresh `x-request-id` (the request's own id was never read) and the security
 * headers here, and the connection closes after the answer (docs/decisions.md "Wire").
 */

const PARSER_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message: 'request: not received in time; send the headers and body without pausing',
  },
  HPE_HEADER_OVERFLOW: {
    code: 'headers_too_large',
    message: 'request: the request line and headers exceed 16 KiB',
  },
  HPE_INVALID_METHOD: {
    code: 'method_not_implemented',
    message: 'method: is not an HTTP method this server implements',
  },
};
const MALFORMED = { code: 'invalid_request' as const, message: 'request: is not valid HTTP/1.1' };

function rawResponse(code: ErrorCode, message: string): string {
  const status = ERROR_STATUS[code];
  const body = JSON.stringify({ error: { code, message } });
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': randomUUID(),
    ...SECURITY_HEADERS,
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { code, message } = PARSER_ERRORS[error.code ?? ''] ?? MALFORMED;
  this.log.warn({ code, parserError: error.code }, message);
  if (socket.writable) socket.end(rawResponse(code, message));
  // If the client never reads, do not keep the socket for it.
  setTimeout(() => socket.destroy(), 1000).unref();
}
