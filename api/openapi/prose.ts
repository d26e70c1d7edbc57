/**
 * The document's descriptive text: the info description with its list of guides, the tags'
 * descriptions (in the order the reference shows them) and the security schemes' text.
 */

/** Tags in the order the reference shows them, with what each group is about. */
export const TAGS: { name: string; description: string }[] = [
  { name: 'health', description: 'Liveness and readiness probes: no credentials, no rate limit' },
  {
    name: 'auth',
    description:
      'Sign-In with Ethereum and Matrix login, sessions (the `svc_session` cookie, or its ' +
      'token as `Authorization: Bearer`) and the current user (docs/guides/quick-start.md)',
  },
  {
    name: 'api-keys',
    description:
      'API keys for scripts and servers: rate limits, FLOW spend caps, rotation and usage',
  },
  {
    name: 'agents',
    description:
      'Your agents: create, publish with a price, set tool prices; call and subscribe to ' +
      'agents (docs/guides/agent-endpoint.md is the contract an agent’s endpoint implements)',
  },
  { name: 'marketplace', description: 'Published agents: listings, detail and platform tools' },
  {
    name: 'tokens',
    description:
      'Token metadata over on-chain launch contracts, with indexed holders, trades and ' +
      'bonding-curve or pool state',
  },
  { name: 'chains', description: 'The chains this deployment accepts, with launch factories' },
  {
    name: 'media',
    description:
      'Image uploads for tokens and agents: stored as WebP, content-addressed, served forever',
  },
  {
    name: 'approvals',
    description:
      'Owner approvals in builds: the policy, the steps a build waits on, approve and reject',
  },
  {
    name: 'ai',
    description:
      'AI metadata fill: a configured model suggests token and agent metadata from a brief, ' +
      'checked against the same rules as a create; nothing is applied by itself',
  },
  {
    name: 'aggregators',
    description:
      'The DEX Screener Adapter: the launchpad’s bonding-curve pairs and their swaps, final ' +
      'blocks only, for aggregators to list them',
  },
  {
    name: 'flow',
    description: 'FLOW, the platform unit: ledger, on-chain state, referral tree and top-ups',
  },
  {
    name: 'projects',
    description: 'Projects that agents build, their build runs, artifacts and the live stream',
  },
  { name: 'search', description: 'Search over published agents and tokens' },
  { name: 'subscriptions', description: 'Subscription tiers and payment provider callbacks' },
  {
    name: 'webhooks',
    description: 'Signed event deliveries to your URLs (docs/guides/webhooks.md)',
  },
  { name: 'analytics', description: 'Usage and earnings of your agents and API keys' },
  { name: 'notifications', description: 'Milestone notifications delivered by the Matrix bot' },
  { name: 'dev', description: 'Development helpers: absent from production deployments' },
  {
    name: 'bot gateway',
    description:
      '`/api/v1`: the Matrix bot messaging gateway, for services holding a bot gateway token; ' +
      'its errors are `{"error","detail"}` (docs/bot-gateway.md)',
  },
];

const GUIDES = [
  ['docs/guides/quick-start.md', 'Quick start: sign in with curl or viem (SIWE), make an API key'],
  ['docs/guides/errors.md', 'Errors: the envelope, codes by status, what to retry'],
  ['docs/guides/pagination.md', 'Pagination: cursors, page sizes'],
  ['docs/guides/idempotency.md', 'Idempotency: retrying writes safely with Idempotency-Key'],
  [
    'docs/guides/agent-endpoint.md',
    'Agent endpoint contract: what your agent receives and answers',
  ],
  ['docs/guides/webhooks.md', 'Webhooks: events, signature verification in Node and Python'],
  ['docs/guides/sse.md', 'Live build stream (SSE): events, reconnecting with Last-Event-ID'],
] as const;

export const INFO_DESCRIPTION = [
  'Agent marketplace priced in FLOW, token launchpad metadata over on-chain launch contracts, ' +
    'projects that agents build with the live build streamed over SSE, the FLOW ledger, ' +
    'subscriptions, API keys, signed webhooks, search and the Matrix bot gateway.',
  '## Authentication',
  'Sign in with Ethereum (`POST /auth/nonce`, then `POST /auth/verify`) or a Matrix login: ' +
    'the session is the `svc_session` cookie, which also works as `Authorization: Bearer ' +
    '<token>`. Scripts and servers use an API key (`POST /me/api-keys`) in `x-api-key` or as ' +
    '`Authorization: Bearer svc_live_…`. Each operation lists the schemes it accepts; routes ' +
    'without any read no credential.',
  '## Conventions',
  '- Errors are `{"error":{"code","message"}}` (the bot gateway: `{"error","detail"}`); each ' +
    'operation lists its statuses and codes. `X-Request-Id` identifies a request in the logs.\n' +
    '- Lists are cursor-paged: pass `nextCursor` back as `cursor` until it is null.\n' +
    '- `POST`, `PATCH` and `DELETE` accept `Idempotency-Key` for safe retries.\n' +
    '- Requests count against a per-minute rate limit (`X-RateLimit-*` headers, 429 with ' +
    '`Retry-After`).\n' +
    '- Timestamps are ISO 8601 UTC; FLOW amounts are numbers with at most 6 decimals.',
  '## Guides',
  'In the service’s repository:\n\n' +
    GUIDES.map(([path, about]) => `- \`${path}\`: ${about}`).join('\n'),
].join('\n\n');

export const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'svc_session',
    description:
      'The session cookie set by `POST /auth/verify` (SIWE) or `POST /auth/matrix`: HttpOnly, ' +
      'renewed as it is used, revoked by `POST /auth/logout`',
  },
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      '`Authorization: Bearer <token>`: the session token (the `svc_session` cookie’s value), ' +
      'or an API key (`svc_live_…`)',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description:
      'An API key from `POST /me/api-keys` (`svc_live_…`): its own rate limit and FLOW spend ' +
      'cap; when present it decides, whatever else the request carries',
  },
  internalToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An internal service token (INTERNAL_TOKENS), for /internal/* only',
  },
  botToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Bot-Token',
    description: 'A bot gateway token (BOT_TOKENS), for /api/v1/* only',
  },
};
