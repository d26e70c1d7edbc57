import { z } from 'zod';

/**
 * Every error code the API can return, with its HTTP status (docs/spec/contract.md §1). One table, so a
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
  token_launched: 409,
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
  // Media
  image_too_large: 400,
  image_too_small: 400,
  media_not_found: 404,
  // Owner approvals
  approval_not_found: 404,
  approval_stale: 409,
  approval_resolved: 409,
  // AI metadata fill
  ai_invalid_output: 422,
  ai_refused: 422,
  ai_unavailable: 503,
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

/** A service the request needs that cannot be reached right now. */
export type Dependency = 'postgres' | 'redis' | 'temporal';

/** `Retry-After` of a request refused while Redis is unreachable or stalled. */
export const REDIS_RETRY_AFTER_SECONDS = 2;
/** `Retry-After` of a workflow start refused while Temporal is unreachable. */
export const TEMPORAL_RETRY_AFTER_SECONDS = 5;

/**
 * 503 `service_unavailable` with `Retry-After`: the request met an outage of `dependency`
 * (a lost or refused connection, a deadline passed), not a fault of its own. The error
 * handler logs the dependency and the cause; the client retries after the header.
 */
export class DependencyUnavailableError extends AppError {
  constructor(
    readonly dependency: Dependency,
    message: string,
    retryAfterSeconds: number,
    cause?: unknown,
  ) {
    super('service_unavailable', message, { 'retry-after': String(retryAfterSeconds) });
    this.name = 'DependencyUnavailableError';
    if (cause !== undefined) this.cause = cause;
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

/**
 * What each code means to a client, and a message as the API writes one: the OpenAPI
 * document lists them per status on every operation and uses the message in its examples
 * (api/openapi/route-docs.ts). Like ERROR_STATUS, a new code cannot be added without its entry.
 */
export const ERROR_DOCS = {
  invalid_request: {
    description: 'A parameter, header or body field is missing or invalid; the message names it',
    example: 'name: must be at most 64 characters',
  },
  invalid_json: {
    description: 'The body is not valid JSON (or is empty with a JSON Content-Type)',
    example: 'body: is not valid JSON',
  },
  invalid_cursor: {
    description: 'The cursor was not issued by this listing with these filters, or was altered',
    example: 'cursor: malformed, tampered or foreign',
  },
  invalid_url: {
    description: 'The URL is not https, does not resolve, or resolves to a private address',
    example: 'url: host is not a public address',
  },
  not_found: {
    description: 'No route has this path',
    example: 'route: GET /agent does not exist',
  },
  method_not_allowed: {
    description: 'The path exists, but not with this method (`Allow` lists those it has)',
    example: 'method: PUT is not allowed on /me/api-keys; use GET, HEAD, POST',
  },
  payload_too_large: {
    description: 'The body is larger than BODY_LIMIT_BYTES',
    example: 'body: is too large',
  },
  uri_too_long: {
    description: 'A path segment is longer than the router accepts',
    example: 'path: a segment is too long',
  },
  request_timeout: {
    description: 'The headers and body did not arrive within REQUEST_TIMEOUT_MS',
    example: 'request: not received in time; send the headers and body without pausing',
  },
  headers_too_large: {
    description: 'The request line and headers exceed 16 KiB',
    example: 'request: the request line and headers exceed 16 KiB',
  },
  method_not_implemented: {
    description: 'The method is not one this server implements',
    example: 'method: is not an HTTP method this server implements',
  },
  unsupported_media_type: {
    description: 'A body was sent with a Content-Type other than application/json',
    example: 'Content-Type: must be application/json',
  },
  gone: {
    description: 'The endpoint was removed; the message says what replaces it',
    example:
      'Payouts were removed: withdrawing FLOW means selling it from your wallet ' +
      '(see /me/flow-onchain)',
  },
  internal_error: {
    description: 'An unexpected failure; safe to retry, and worth reporting with X-Request-Id',
    example: 'Internal server error',
  },
  service_unavailable: {
    description:
      'A dependency (Redis, Temporal, a chain RPC) did not answer in time; retry shortly, ' +
      'after `Retry-After` when present',
    example: 'Rate limiting is unavailable; retry shortly',
  },
  idempotency_in_progress: {
    description:
      'A request with this Idempotency-Key is still running; retry after `Retry-After` to get ' +
      'its response',
    example: 'Idempotency-Key: a request with this key is still being processed',
  },
  idempotency_key_reused: {
    description: 'This Idempotency-Key was already used with a different body or query',
    example: 'Idempotency-Key: was already used with a different request body',
  },
  idempotency_replay_unavailable: {
    description:
      'The request was already processed, but its stored response (which held a secret) can ' +
      'no longer be opened; it is not run again',
    example:
      'Idempotency-Key: a request with this key was already processed, but its stored ' +
      'response can no longer be replayed',
  },
  unauthenticated: {
    description:
      'No valid credential: no session cookie, Bearer token or API key, or one that expired',
    example: 'This endpoint needs a session (cookie or Bearer token) or an API key',
  },
  invalid_api_key: {
    description: 'The API key (x-api-key or Bearer svc_live_…) is unknown, revoked or expired',
    example: 'API key: is invalid or revoked',
  },
  siwe_invalid: {
    description:
      'The SIWE message or its signature is not acceptable here (domain, URI, chain, time, ' +
      'signature)',
    example: 'message: domain must be localhost:3000',
  },
  nonce_invalid: {
    description: 'The SIWE nonce is unknown, expired (10 minutes) or already used',
    example: 'nonce: is unknown, expired or already used',
  },
  matrix_token_invalid: {
    description: 'The homeserver does not know this OpenID token (expired, forged, other server)',
    example:
      'openidToken: the homeserver does not know this token (forged, expired or of another ' +
      'server)',
  },
  homeserver_not_allowed: {
    description: 'The homeserver is not one whose users may sign in here',
    example: 'homeserver: "evil.example" is not a homeserver whose users may sign in here',
  },
  matrix_account_linked: {
    description: 'This Matrix account is already linked to another user',
    example: 'openidToken: the Matrix account @alice:matrix.org is already linked to another user',
  },
  wallet_linked: {
    description: 'This wallet is already linked to another user',
    example:
      'message: the wallet 0x5b38da6a701c568545dcfcb03fcb875f56beddc4 is already linked to ' +
      'another user',
  },
  matrix_homeserver_failed: {
    description: 'The homeserver could not be asked (unreachable, too slow, broken answer)',
    example: 'homeserver: could not verify the token with the homeserver; retry shortly',
  },
  spend_limit_reached: {
    description: 'This API key’s FLOW spend cap for its period would be passed; nothing charged',
    example:
      "This API key's FLOW spend cap is reached: 24.5 of 25 used this month, 0.5 left, this " +
      'call costs 1.5',
  },
  insufficient_flow: {
    description: 'Your spendable FLOW balance does not cover the price; nothing charged',
    example: 'this call can cost up to 1.75 FLOW, more than your spendable balance',
  },
  forbidden: {
    description: 'The credential is valid but may not use this endpoint',
    example: 'This endpoint is for internal service tokens only',
  },
  rate_limited: {
    description:
      'Too many requests in this minute for the credential’s bucket; retry after `Retry-After`',
    example: 'Rate limit of 60 requests per minute exceeded; retry after 12 s',
  },
  invalid_ticker: {
    description: 'The ticker is not 3 to 6 characters of A-Z and 0-9',
    example: 'ticker: must be 3 to 6 characters, A-Z and 0-9 only',
  },
  template_unknown: {
    description: 'Not a known template, or the template has no launch factory on that chain',
    example: 'template: "pumpfun" is not a template (virtuals, dpnm)',
  },
  params_invalid: {
    description: 'The launch parameters do not fit the template; each problem is named',
    example: 'params.graduationThreshold: must be a decimal string with at most 18 decimals',
  },
  chain_unsupported: {
    description: 'The chain is not configured on this deployment (GET /chains lists them)',
    example: 'chainId: 1 is not configured; GET /chains lists the supported chains',
  },
  token_not_found: {
    description: 'No token has this slug',
    example: 'token: "atlas" does not exist',
  },
  ticker_taken: {
    description: 'Another token on this chain has this ticker',
    example: 'ticker: ATLAS is already used on chain 31337',
  },
  instance_taken: {
    description: 'This contract address is already linked to a token on this chain',
    example:
      'instance: 0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0 is already linked to a token on ' +
      'chain 31337',
  },
  token_launched: {
    description:
      'The token is launched: its name, ticker and image are on chain (or frozen by it) and ' +
      'can no longer change; description and links still can',
    example: 'name: atlas is launched (state live); only description and links can change',
  },
  invalid_monetization: {
    description: 'The prices do not fit the monetization model (a required one missing, an extra)',
    example: 'perCallPriceFlow: is required for the per_call model',
  },
  tool_unknown: {
    description: 'A tool that is not a platform tool (GET /marketplace/tools)',
    example: 'tools: web_scrape is not a platform tool (GET /marketplace/tools)',
  },
  not_owner: {
    description: 'The resource exists but belongs to another user',
    example: 'Agent research-assistant belongs to another user',
  },
  agent_not_found: {
    description: 'No agent with this slug that the caller may see',
    example: 'Agent research-assistant does not exist',
  },
  slug_taken: {
    description: 'The slug asked for is already used',
    example: 'slug: research-assistant is already taken',
  },
  agent_not_published: {
    description: 'The agent is a draft or was unpublished',
    example: 'research-assistant: is not published yet',
  },
  subscription_not_offered: {
    description: 'The agent is not priced with a subscription (subscription or hybrid)',
    example: 'research-assistant: is priced per_call, without subscriptions',
  },
  subscription_required: {
    description: 'The agent is subscription-only and the caller has no active subscription',
    example:
      'research-assistant: calls need an active subscription (POST ' +
      '/agents/research-assistant/subscribe)',
  },
  free_quota_exhausted: {
    description: 'Today’s free calls (freemium) are used and the agent has no per-call price',
    example:
      "research-assistant: today's 20 free calls are used; the quota resets at " +
      '2026-11-25T00:00:00.000Z',
  },
  rating_not_allowed: {
    description: 'Only callers with a succeeded call may rate an agent, and never its owner',
    example: 'rating: only callers with a succeeded call of research-assistant may rate it',
  },
  agent_failed: {
    description:
      'The agent’s endpoint failed, answered an error or an invalid body; nothing charged',
    example: 'research-assistant: the agent answered HTTP 500',
  },
  agent_timeout: {
    description: 'The agent did not answer within AGENT_CALL_TIMEOUT_MS; nothing charged',
    example: 'research-assistant: the agent did not answer in time',
  },
  user_not_found: {
    description: 'No user has this id',
    example: 'userId: user 4242 does not exist',
  },
  ref_id_conflict: {
    description: 'This refId was already used for a credit with other values',
    example: 'refId: cryptobot-inv-88231 was already used for a different credit',
  },
  token_no_match: {
    description: 'The token named belongs to another user',
    example: 'tokenSlug: token atlas is not owned by the caller',
  },
  private_forbidden: {
    description: 'The stream of a private project is for its owner only',
    example: 'The stream of a private project is for its owner only',
  },
  feature_not_in_tier: {
    description: 'The caller’s subscription tier does not include this feature',
    example: 'private: private projects need the max tier (GET /me/subscription)',
  },
  project_not_found: {
    description: 'No project with this slug that the caller may see',
    example: 'project atlas-landing-page does not exist',
  },
  project_locked: {
    description: 'The token already has a project that is not archived',
    example: 'tokenSlug: token atlas already has an active project; archive it first',
  },
  run_in_progress: {
    description: 'A build run is queued or running; cancel it or wait for it to end',
    example:
      'project atlas-landing-page already has a run running; cancel it or wait for it to end',
  },
  project_archived: {
    description: 'The project is archived',
    example: 'project atlas-landing-page is archived',
  },
  no_active_run: {
    description: 'The project has no queued or running build to cancel',
    example: 'project atlas-landing-page has no queued or running run',
  },
  artifact_not_found: {
    description: 'This run has no artifact (it made no commit, or it is not this project’s run)',
    example:
      'run 3f1c2a9e-8b7d-4c6e-9a5f-2d4b8e7c1a03 of project atlas-landing-page has no artifact',
  },
  address_not_activated: {
    description: 'The caller’s wallet has no place in a FLOW tree (or the account has no wallet)',
    example:
      '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4 has not called activate on the FLOW protocol ' +
      'of any configured chain',
  },
  tier_unknown: {
    description: 'Not a tier: plus, pro or max',
    example: 'tier: must be one of plus, pro, max',
  },
  provider_unsupported: {
    description: 'The payment provider is not enabled on this deployment',
    example: 'provider: "stripe" is not enabled here (enabled: cryptobot, platega, usdt_bep20)',
  },
  subscription_active: {
    description: 'There is already an active or grace subscription; change it instead',
    example: 'You already have the pro tier (active); change it with POST /me/subscription/change',
  },
  subscription_not_found: {
    description: 'The caller has no active or grace subscription',
    example: 'You have no active subscription (start one with POST /subscriptions/checkout)',
  },
  subscription_past_due: {
    description: 'The renewal is unpaid (grace): pay it before upgrading',
    example:
      'Your renewal is unpaid: pay it first (GET /me/subscription shows the invoice), then ' +
      'upgrade',
  },
  payment_provider_failed: {
    description: 'The payment provider did not create the invoice; try again or another provider',
    example: 'provider: cryptobot did not create the invoice; try again or use another provider',
  },
  invalid_signature: {
    description: 'The callback is not signed by the provider; nothing changed',
    example: 'The callback is not signed by the provider',
  },
  api_key_not_found: {
    description: 'No active API key of the caller has this id',
    example: 'API key 6f8d2c1e-4b3a-4f5e-9d7c-1a2b3c4d5e6f does not exist',
  },
  api_key_limit_reached: {
    description: 'The caller already holds the most active API keys allowed; revoke one first',
    example: 'A user can hold at most 100 active API keys; revoke one first',
  },
  api_key_rolled: {
    description: 'This key was already rolled; roll its successor instead',
    example:
      'API key 6f8d2c1e-4b3a-4f5e-9d7c-1a2b3c4d5e6f was already rolled to ' +
      '0b7e4f2a-9c1d-4e8b-a3f6-5d2c7b9e1f40; roll that key instead',
  },
  webhook_not_found: {
    description: 'No live webhook subscription of the caller has this id',
    example: 'webhook 2c9b7a1e-5d4f-4e3a-8b6c-9f0e1d2a3b4c does not exist',
  },
  delivery_not_found: {
    description: 'This subscription has no delivery with this id',
    example: 'delivery 8a1f3e5c-7b9d-4c2e-a6f4-3b5d7e9f1a2c does not exist',
  },
  webhook_limit_reached: {
    description: 'The caller already holds the most webhook subscriptions allowed',
    example: 'A user can hold at most 20 webhooks; delete one first',
  },
  image_too_large: {
    description:
      'The image has more than 4096 pixels on a side, or would decode to more than 4096 × 4096',
    example: 'file: the image is 20000 × 20000 pixels; at most 4096 × 4096',
  },
  image_too_small: {
    description: 'The image has fewer than 64 pixels on a side',
    example: 'file: the image is 32 × 32 pixels; at least 64 on each side',
  },
  media_not_found: {
    description: 'No uploaded media has this id',
    example: 'media 9f86d081…: does not exist',
  },
  approval_not_found: {
    description: 'No approval request with this id in this project of the caller',
    example:
      'approval 0b6f3a52-8c1d-4e7a-9f20-3d5b7c9e1a46 does not exist in project atlas-research',
  },
  approval_stale: {
    description:
      'The argsDigest sent is not the request’s: the decision would approve other arguments ' +
      'than the ones shown',
    example: 'argsDigest: does not match the request’s arguments; reload the request',
  },
  approval_resolved: {
    description: 'The request is no longer pending: decided otherwise, expired or canceled',
    example: 'approval 0b6f3a52-8c1d-4e7a-9f20-3d5b7c9e1a46 is already rejected',
  },
  ai_invalid_output: {
    description:
      'The model’s answer broke the rules twice (once more after being told what was wrong); ' +
      'nothing was suggested',
    example: 'the model’s answer broke the rules after one repair: ticker: ATLAS is already used',
  },
  ai_refused: {
    description: 'The model declined to write metadata for this brief',
    example: 'the model declined this brief: I can’t help with that.',
  },
  ai_unavailable: {
    description:
      'The model could not be asked (busy, failing, too slow, or none configured); the ' +
      'message says which, Retry-After when to try again',
    example: 'the model did not answer within 20 s; try again after 10 s',
  },
} as const satisfies Record<ErrorCode, { description: string; example: string }>;
