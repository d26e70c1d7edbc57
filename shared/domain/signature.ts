import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signing of outbound deliveries (webhooks and agent calls, docs/spec/contract.md §7): the service's own
 * `X-Service-Signature: t=<unix>,v1=<hex>` over `<t>.<body>` keyed with the secret string (as
 * Stripe does), and the Standard Webhooks headers keyed with the bytes after `whsec_`, so any
 * Standard Webhooks verifier works too.
 */

const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export interface SignedDelivery {
  secret: string;
  /** Unique per delivery, kept across retries (`webhook-id`, the envelope id). */
  id: string;
  /** Unix seconds; fresh for every attempt. */
  timestamp: number;
  body: string;
}

export function signatureHeaders(delivery: SignedDelivery): Record<string, string> {
  const { secret, id, timestamp, body } = delivery;
  const service = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  const standardKey = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const standard = createHmac('sha256', standardKey)
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return {
    'x-service-signature': `t=${timestamp},v1=${service}`,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${standard}`,
  };
}
