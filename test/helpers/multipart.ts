import { request as httpRequest } from 'node:http';

/** A part of a multipart/form-data body: a field (no `filename`) or a file. */
export interface Part {
  name: string;
  bytes: Buffer | string;
  filename?: string;
  type?: string;
}

/** A multipart/form-data body, serialised by the platform's own FormData, parts in order. */
export async function multipart(parts: Part[]): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const part of parts) {
    if (part.filename === undefined) form.append(part.name, String(part.bytes));
    else
      form.append(
        part.name,
        new Blob([part.bytes], { type: part.type ?? 'application/octet-stream' }),
        part.filename,
      );
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type')!,
  };
}

/**
 * POSTs a body over a real socket, as fast as the server takes it, and reads the answer: a
 * refusal sent before the body was read must still reach a client like this one.
 */
export function postOverHttp(
  url: URL,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
