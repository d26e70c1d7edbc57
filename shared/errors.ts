import { z } from 'zod';

/**
 * Every error code the API can return, with its HTTP status (decisions §1). One table, so a
 * code always maps to the same status and a new code cannot be added without one.
 */
export const ERROR_STATUS = {
  // Generic wire errors
  invalid_request: 400,
  invalid_json: 400,
  invalid_cursor: 400,
  invalid_url: 400,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  uri_too_long: 414,
  request_timeout: 408,
  headers_too_large: 431,
  method_not_implemented: 501,
  unsupported_media_type: 415,
  gone: 410,
  internal_error: 500,
  service_unavailable: 503,
  // Idempotency
  idempotency_in_progress: 409,
  idempotency_key_reused: 422,
  idempotency_replay_unavailable: 409,
  // Authentication and limits
  unauthenticated: 401,
  invalid_api_key: 401,
  siwe_invalid: 401,
  nonce_invalid: 401,
  matrix_token_invalid: 401,
  homeserver_not_allowed: 400,
  matrix_account_linked: 409,
  wallet_linked: 409,
  matrix_homeserver_failed: 502,
  spend_limit_reached: 402,
  insufficient_flow: 402,
  forbidden: 403,
  rate_limited: 429,
  // Tokens
  invalid_ticker: 400,
  template_unknown: 400,
  params_invalid: 400,
  chain_unsupported: 400,
  token_not_found: 404,
  ticker_taken: 409,
  instance_taken: 409,
  // Marketplace
  invalid_monetization: 400,
  tool_unknown: 400,
  not_owner: 403,
  agent_not_found: 404,
  slug_taken: 409,
  agent_not_published: 409,
  subscription_not_offered: 409,
  subscription_required: 402,
  free_quota_exhausted: 429,
  rating_not_allowed: 403,
  agent_failed: 502,
  agent_timeout: 504,
  // FLOW
  user_not_found: 404,
  ref_id_conflict: 409,
  // Projects
  token_no_match: 403,
  private_forbidden: 403,
  feature_not_in_tier: 403,
  project_not_found: 404,
  project_locked: 409,
  run_in_progress: 409,
  project_archived: 409,
  no_active_run: 409,
  artifact_not_found: 404,
  // On-chain, subscriptions, keys, webhooks
  address_not_activated: 403,
  tier_unknown: 400,
  provider_unsupported: 400,
  subscription_active: 409,
  subscription_not_found: 404,
  subscription_past_due: 409,
  payment_provider_failed: 502,
  invalid_signature: 401,
  api_key_not_found: 404,
  api_key_limit_reached: 409,
  api_key_rolled: 409,
  webhook_not_found: 404,
  delivery_not_found: 404,
  webhook_limit_reached: 409,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** The body of every 4xx and 5xx response of the main API. */
export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().describe('Stable, machine-readable error code'),
      message: z.string().describe('Human-readable explanation'),
    }),
  })
  .meta({ id: 'ErrorEnvelope' });

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
