import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Plumbing shared by the provider stand-ins: bodies, answers, the checkout page, callbacks. */

const BODY_LIMIT_BYTES = 1024 * 1024;
const CALLBACK_TIMEOUT_MS = 10_000;

export function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        request.destroy();
        reject(new Error('body too large'));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

export function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  response.end(html);
}

export function parseJsonObject(raw: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export interface CheckoutPage {
  provider: string;
  rows: [label: string, value: string][];
  /** Where the Pay button posts; null once the invoice cannot be paid. */
  payAction: string | null;
  /** Where a Cancel button posts, for providers whose payers can decline. */
  cancelAction?: string | null;
  notice?: string;
}

/** The stand-in's payment page: what the invoice is, and a Pay button that does what `pay()` does. */
export function checkoutHtml(page: CheckoutPage): string {
  const rows = page.rows
    .map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  const notice = page.notice ? `<p><strong>${escapeHtml(page.notice)}</strong></p>` : '';
  const button = page.payAction
    ? `<form method="post" action="${escapeHtml(page.payAction)}"><button type="submit">Pay</button></form>`
    : '';
  const cancel = page.cancelAction
    ? `<form method="post" action="${escapeHtml(page.cancelAction)}"><button type="submit">Cancel</button></form>`
    : '';
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(page.provider)} (stand-in)</title>
<style>body{font-family:sans-serif;max-width:32rem;margin:3rem auto}th{text-align:left;padding-right:1rem}button{font-size:1.2rem;padding:.5rem 2rem;margin-top:1rem}</style>
</head><body><h1>${escapeHtml(page.provider)} <small>(local stand-in, no real money)</small></h1>
${notice}<table>${rows}</table>${button}${cancel}</body></html>`;
}

/** POSTs a provider callback as the provider would; resolves with the receiver's HTTP status. */
export async function deliverCallback(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Listens and resolves with the server's base URL (`http://host:port`). */
export async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}`;
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Routes a request to a handler and turns a thrown error into a 500 the caller can read. */
export function handleSafely(
  handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    handler(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        sendJson(response, 500, { error: error instanceof Error ? error.message : 'failed' });
      } else {
        response.end();
      }
    });
  };
}
