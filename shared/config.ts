import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * The one place that knows the environment variables (docs/spec/contract.md §9). Entry points call
 * `loadConfig(process.env)` once and hand the result down; nothing else reads the environment.
 */

/** docs/spec/contract.md §10: a chain's blocks are final 12 blocks below its head unless configured. */
export const DEFAULT_FINALITY_DEPTH = 12;

const DEV_SECRET = 'dev-only-secret-change-me-0123456789abcdef';

/**
 * `https://app.example,http://localhost:5173`: exact origins (scheme, host, optional port),
 * never `*`, since credentialed requests (the session cookie) need a named origin.
 */
const corsOrigins = z
  .string()
  .default('')
  .transform((value, context) => {
    const origins = value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
    for (const origin of origins) {
      let parsed: URL | null = null;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = null;
      }
      if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) {
        context.addIssue({
          code: 'custom',
          message: `"${origin}" is not an origin like https://app.example (no path, no *)`,
        });
      }
    }
    return origins;
  });

const csv = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

const chainRpcUrls = z.string().transform((value, ctx) => {
  const urls: Record<number, string> = {};
  for (const pair of value.split(',').filter((item) => item.trim().length > 0)) {
    const match = /^\s*(\d+)\s*=\s*(\S+)\s*$/.exec(pair);
    if (!match?.[1] || !match[2] || !URL.canParse(match[2])) {
      ctx.addIssue({ code: 'custom', message: `"${pair}" is not <chainId>=<url>` });
      return z.NEVER;
    }
    urls[Number(match[1])] = match[2];
  }
  return urls;
});

/**
 * Homeservers whose users may sign in with Matrix (`POST /auth/matrix`): `<server name>` (its
 * federation API at `https://<name>:8448`, the Matrix default) or `<server name>=<base URL>` (a
 * delegated or local server, e.g. `localhost=http://127.0.0.1:8008`).
 */
const matrixLoginHomeservers = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const servers: Record<string, string> = {};
    for (const entry of value.split(',').filter((item) => item.trim().length > 0)) {
      const match = /^\s*([a-z0-9.:[\]-]+?)\s*(?:=\s*(\S+)\s*)?$/i.exec(entry);
      const url = match?.[2] ?? `https://${match?.[1]}:8448`;
      if (!match?.[1] || !URL.canParse(url)) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not <server name>[=<url>]` });
        return z.NEVER;
      }
      servers[match[1].toLowerCase()] = url.replace(/\/+$/, '');
    }
    return servers;
  });

/** `<chainId>=<non-negative integer>` pairs, e.g. `97=15,31337=0` (per-chain settings). */
const chainIntegers = z.string().transform((value, ctx) => {
  const numbers: Record<number, number> = {};
  for (const pair of value.split(',').filter((item) => item.trim().length > 0)) {
    const match = /^\s*(\d+)\s*=\s*(\d+)\s*$/.exec(pair);
    if (!match?.[1] || !match[2] || !Number.isSafeInteger(Number(match[2]))) {
      ctx.addIssue({ code: 'custom', message: `"${pair}" is not <chainId>=<integer>` });
      return z.NEVER;
    }
    numbers[Number(match[1])] = Number(match[2]);
  }
  return numbers;
});

/** `<chainId>=<0x address>` pairs, e.g. `56=0xabc…`: one address per chain. */
const chainAddresses = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const addresses: Record<number, `0x${string}`> = {};
    for (const pair of value.split(',').filter((item) => item.trim().length > 0)) {
      const match = /^\s*(\d+)\s*=\s*(0x[0-9a-fA-F]{40})\s*$/.exec(pair);
      if (!match?.[1] || !match[2]) {
        ctx.addIssue({ code: 'custom', message: `"${pair}" is not <chainId>=<0x address>` });
        return z.NEVER;
      }
      addresses[Number(match[1])] = match[2] as `0x${string}`;
    }
    return addresses;
  });

/**
 * `<IP>:<port>` (`127.0.0.1:9464`, `[::1]:9464`): the worker's Prometheus exporter binds a
 * socket address, so a host name is refused here rather than by the exporter at start.
 */
const socketAddress = z
  .string()
  .optional()
  .refine(
    (value) => {
      if (value === undefined || value === '') return true;
      const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
      const host = match?.[1] ?? match?.[2];
      const port = Number(match?.[3]);
      return host !== undefined && isIP(host) !== 0 && port >= 1 && port <= 65_535;
    },
    { message: 'must be <IP>:<port>, e.g. 127.0.0.1:9464' },
  )
  .transform((value) => value || undefined);

/**
 * A variable whose default depends on NODE_ENV (chosen by `toConfig`): unset or empty, it is
 * undefined; anything else `schema` parses.
 */
function unlessEmpty<Out>(schema: z.ZodType<Out, string>) {
  return z
    .string()
    .optional()
    .transform((value) => value || undefined)
    .pipe(schema.optional());
}

const TEMPLATES = ['virtuals', 'dpnm'] as const;
export type LaunchTemplate = (typeof TEMPLATES)[number];
export type LaunchFactories = Record<number, Partial<Record<LaunchTemplate, `0x${string}`>>>;

/** `<chainId>:<template>=<factory address>` pairs, e.g. `97:dpnm=0xabc…,97:virtuals=0xdef…`. */
const launchFactories = z.string().transform((value, ctx) => {
  const factories: LaunchFactories = {};
  for (const pair of value.split(',').filter((item) => item.trim().length > 0)) {
    const match = /^\s*(\d+)\s*:\s*([a-z]+)\s*=\s*(0x[0-9a-fA-F]{40})\s*$/.exec(pair);
    const template = TEMPLATES.find((known) => known === match?.[2]);
    if (!match?.[1] || !match[3] || !template) {
      ctx.addIssue({
        code: 'custom',
        message: `"${pair}" is not <chainId>:<virtuals|dpnm>=<0x address>`,
      });
      return z.NEVER;
    }
    const chainId = Number(match[1]);
    factories[chainId] = { ...factories[chainId], [template]: match[3] as `0x${string}` };
  }
  return factories;
});

export const PAYMENT_TOKEN_ROLES = ['virtualsPayment', 'usdt'] as const;
/** `virtualsPayment`: what virtuals bonding curves trade against; `usdt`: what dpnm is priced in. */
export type PaymentTokenRole = (typeof PAYMENT_TOKEN_ROLES)[number];
export type ChainPaymentTokens = Record<number, Partial<Record<PaymentTokenRole, `0x${string}`>>>;

/**
 * `<chainId>:<role>=<ERC-20 address>` pairs, e.g. `97:usdt=0xabc…`: the payment tokens
 * GET /chains shows wallets (docs/decisions.md "Tokens and chains").
 */
const chainPaymentTokens = z.string().transform((value, ctx) => {
  const tokens: ChainPaymentTokens = {};
  for (const pair of value.split(',').filter((item) => item.trim().length > 0)) {
    const match = /^\s*(\d+)\s*:\s*([A-Za-z]+)\s*=\s*(0x[0-9a-fA-F]{40})\s*$/.exec(pair);
    const role = PAYMENT_TOKEN_ROLES.find((known) => known === match?.[2]);
    if (!match?.[1] || !match[3] || !role) {
      ctx.addIssue({
        code: 'custom',
        message: `"${pair}" is not <chainId>:<virtualsPayment|usdt>=<0x address>`,
      });
      return z.NEVER;
    }
    const chainId = Number(match[1]);
    tokens[chainId] = { ...tokens[chainId], [role]: match[3] as `0x${string}` };
  }
  return tokens;
});

/**
 * Outside production, chain 31337 (anvil) has the factories where `npm run chain:deploy` puts
 * them: each template's factory at its CREATE2 address.
 */
const DEV_LAUNCH_FACTORIES: LaunchFactories = {
  31337: {
    // The CREATE2 address of `npm run chain:deploy` (docs/chain.md "Deployment"); a test fails
    // when a contract change moves it.
    virtuals: '0x7f25f5639eE79FF51af75ba67b89Eba04b363E62',
    dpnm: '0x5E6AD17B1a1e9baA1371CB6D60056a09C8bAF2dd',
  },
};

/**
 * Outside production, chain 31337 (anvil) has the test payment tokens (`TestToken`, anyone may
 * mint) where `npm run chain:deploy` puts them (docs/chain.md "Deployment"); a test fails when
 * a contract change moves them.
 */
const DEV_CHAIN_PAYMENT_TOKENS: ChainPaymentTokens = {
  31337: {
    virtualsPayment: '0x16E454B91a9A4DA4043Ecad326c31e1b8a378e24',
    usdt: '0x536cce5883F2D6D2f5B52A479cf962ab53396862',
  },
};

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    // Where clients reach the API, for absolute links in responses (e.g. `marketplaceUrl`).
    PUBLIC_BASE_URL: z.url().optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    // Behind a load balancer: "true" (trust every hop) or comma-separated trusted proxy
    // addresses/CIDRs. Decides the client IP that anonymous rate limits count by.
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((value): boolean | string =>
        value === 'true' ? true : value === 'false' ? false : value,
      ),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(72_000),
    DATABASE_URL: z.url().optional(),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
    REDIS_URL: z.url().optional(),
    REDIS_KEY_PREFIX: z.string().default(''),
    // How long one Redis command may go unanswered before it fails (docs/decisions.md,
    // "Redis when slow or down"): a stalled Redis then costs a request a bounded wait, not
    // the whole stall. At most 2 s, the time /readyz gives each check.
    REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(10).max(2_000).default(500),
    TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('agent-platform'),
    // The domain a SIWE message must name; default `localhost:<PORT>`, like PUBLIC_BASE_URL.
    SIWE_DOMAIN: z.string().min(1).optional(),
    JWT_SECRET: z.string().min(32).default(DEV_SECRET),
    API_KEY_PEPPER: z.string().min(32).default(DEV_SECRET),
    INTERNAL_TOKENS: csv,
    CORS_ORIGINS: corsOrigins,
    BOT_TOKENS: csv,
    WEBHOOK_ALLOWED_HOSTS: z.string().optional(),
    // Hosts the build tool fetch_url may read despite a private address (none in production).
    BUILD_FETCH_ALLOWED_HOSTS: z.string().optional(),
    CHAIN_RPC_URLS: unlessEmpty(chainRpcUrls),
    LAUNCH_FACTORIES: unlessEmpty(launchFactories),
    CHAIN_PAYMENT_TOKENS: unlessEmpty(chainPaymentTokens),
    // The dpnm launch whose protocol is the chain's FLOW (GET /me/flow-onchain, /me/tree), by
    // instance address; a chain not listed uses its first dpnm launch of a token of ours.
    CHAIN_FLOW_TOKENS: chainAddresses,
    // The chain indexer (docs/chain.md "Indexer"): blocks below head - depth are final (default
    // 12; 0 trusts every block at once), the first block to read per chain (the factories'
    // deployment), the most blocks one eth_getLogs asks for, and the wait once caught up.
    CHAIN_FINALITY_DEPTH: unlessEmpty(chainIntegers),
    CHAIN_START_BLOCKS: z.string().default('').pipe(chainIntegers),
    CHAIN_LOG_RANGE: z.coerce.number().int().min(1).max(100_000).default(2_000),
    CHAIN_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(2_000),
    // A token with no launch seen on chain this long after its creation is `failed`.
    LAUNCH_TIMEOUT_HOURS: z.coerce.number().positive().max(8_760).default(72),
    MATRIX_HOMESERVER_URL: z.url().optional(),
    MATRIX_ACCESS_TOKEN: z.string().optional(),
    MATRIX_LOGIN_HOMESERVERS: matrixLoginHomeservers,
    LOW_BALANCE_THRESHOLD_FLOW: z.coerce.number().nonnegative().default(10),
    // How long an agent's endpoint may take to answer an invocation. At most 90 s, so a call
    // always ends before its Idempotency-Key lock (120 s) could be taken over by a retry.
    AGENT_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(90_000).default(30_000),
    // Build runtime (workers): where per-run git workspaces live, the time limit of one
    // allow-listed command, the most steps a run may take, and an optional pause between
    // steps so that a build can be watched live (demos, tests).
    BUILD_WORKSPACE_ROOT: z.string().min(1).default('.data/workspaces'),
    BUILD_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    BUILD_MAX_TURNS: z.coerce.number().int().min(1).max(500).default(40),
    BUILD_PACE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    BUILD_ARTIFACT_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(10 * 1024 * 1024),
    // Build lanes (docs/decisions.md "Build lanes"): build steps in flight per worker process on
    // each lane's queue (its worker's activity slots). A build waiting between steps holds none.
    BUILD_STANDARD_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(8),
    BUILD_PRIORITY_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(4),
    BUILD_DEDICATED_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(2),
    // Planning brain: an OpenAI-compatible chat-completions endpoint with tool calling. Unset,
    // each template's deterministic planner drives the same real tools.
    LLM_BASE_URL: z.url().optional(),
    LLM_API_KEY: z.string().optional(),
    LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
    LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
    // AI metadata fill (docs/spec/contract.md §15) on the same endpoint: the deadline of one
    // fill (its repair turn included) and the per-user limits.
    AI_FILL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
    AI_FILL_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
    AI_FILL_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(100),
    // Media (docs/spec/contract.md §14): an S3-compatible bucket when MEDIA_S3_BUCKET is set
    // (MEDIA_S3_ENDPOINT for a store other than AWS), else files under MEDIA_DIR.
    MEDIA_S3_ENDPOINT: z.url().optional(),
    MEDIA_S3_REGION: z.string().min(1).default('us-east-1'),
    MEDIA_S3_BUCKET: z.string().min(1).optional(),
    MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    MEDIA_DIR: z.string().min(1).default('.data/media'),
    // Where a CDN or the bucket serves the objects (`<base>/<key>`); unset: GET /media/:id.
    MEDIA_PUBLIC_BASE_URL: z.url().optional(),
    // Uploads per user per hour (429 with Retry-After beyond).
    MEDIA_UPLOADS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
    // Webhooks: longest wait before the dispatcher turns new outbox events into deliveries.
    WEBHOOK_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
    // Webhook attempts in flight per worker process (each holds a slot while its POST runs).
    WEBHOOK_DELIVERY_CONCURRENCY: z.coerce.number().int().min(2).max(1_000).default(100),
    // SSE: comment heartbeat interval and the reconnect delay hinted to clients.
    SSE_HEARTBEAT_MS: z.coerce.number().int().min(10).max(300_000).default(15_000),
    SSE_RETRY_MS: z.coerce.number().int().min(0).max(600_000).default(3_000),
    // Streams of tiers without `fasterSse` get their events in batches this far apart.
    SSE_STANDARD_BATCH_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
    // Payment providers (docs/payments.md): each is enabled by its credentials; base URLs are
    // configurable so development and tests run loopback stand-ins of each API.
    CRYPTOBOT_API_URL: z.url().default('https://pay.crypt.bot/api'),
    CRYPTOBOT_API_TOKEN: z.string().min(1).optional(),
    PLATEGA_API_URL: z.url().default('https://app.platega.io'),
    PLATEGA_MERCHANT_ID: z.string().min(1).optional(),
    PLATEGA_SECRET: z.string().min(1).optional(),
    // Platega charges in its own currency (rubles): the method, currency and rate per USD.
    PLATEGA_PAYMENT_METHOD: z.coerce.number().int().positive().default(2),
    PLATEGA_CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code')
      .default('RUB'),
    PLATEGA_RATE_PER_USD: z.coerce.number().positive().optional(),
    PLATEGA_RETURN_URL: z.url().optional(),
    PLATEGA_FAILED_URL: z.url().optional(),
    // Crypto Pay `accepted_assets` (e.g. USDT,TON); empty: every asset Crypto Pay offers.
    CRYPTOBOT_ACCEPTED_ASSETS: csv,
    // usdt_bep20: the chain and the treasury address amount-tagged USDT transfers go to (the
    // token is the chain's CHAIN_PAYMENT_TOKENS `usdt`). Outside production: chain 31337.
    USDT_BEP20_CHAIN_ID: z.coerce.number().int().positive().optional(),
    USDT_BEP20_TREASURY: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address')
      .optional(),
    // How long a checkout's invoice can be paid.
    PAYMENT_INVOICE_TTL_MINUTES: z.coerce.number().int().min(5).max(10_080).default(60),
    // A renewal invoice is issued this long before `renewsAt`.
    SUBSCRIPTION_RENEWAL_LEAD_HOURS: z.coerce.number().int().min(1).max(600).default(72),
    // FLOW top-ups: FLOW credited per USD paid, and how long a top-up stays unwithdrawable.
    FLOW_PER_USD: z.coerce.number().positive().max(1_000_000).default(1),
    TOPUP_SETTLEMENT_HOURS: z.coerce.number().min(0).max(8_760).default(24),
    // Requests per minute per bucket (docs/spec/contract.md §5); API keys carry their own rate_limit_rpm.
    RATE_LIMIT_ANONYMOUS_RPM: z.coerce.number().int().positive().default(30),
    RATE_LIMIT_USER_RPM: z.coerce.number().int().positive().default(240),
    RATE_LIMIT_INTERNAL_RPM: z.coerce.number().int().positive().default(1000),
    // Metrics (docs/metrics.md): the bearer token GET /metrics of the API asks for (unset in
    // production: no such route; unset elsewhere: open), and where a worker process serves its
    // own (Temporal's Prometheus exporter; unset: not served).
    METRICS_TOKEN: z
      .string()
      .regex(/^(?:[\x21-\x7e]{16,4096})?$/, 'must be 16 or more printable characters, no spaces')
      .optional()
      .transform((value) => value || undefined),
    WORKER_METRICS_ADDRESS: socketAddress,
  })
  .superRefine((env, ctx) => {
    if (env.MEDIA_S3_BUCKET) {
      for (const name of ['MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[name]) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required with MEDIA_S3_BUCKET',
          });
        }
      }
    }
    if (env.NODE_ENV !== 'production') return;
    // Production never runs on embedded stand-ins or development secrets.
    for (const name of ['DATABASE_URL', 'REDIS_URL'] as const) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required' });
    }
    // A placeholder exchange rate must never price real payments.
    if (env.PLATEGA_MERCHANT_ID && env.PLATEGA_RATE_PER_USD === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['PLATEGA_RATE_PER_USD'],
        message: 'is required when Platega is enabled',
      });
    }
    for (const name of ['JWT_SECRET', 'API_KEY_PEPPER'] as const) {
      if (env[name] === DEV_SECRET) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'must be set in production' });
      }
    }
  });

/** Every variable the service reads (README and .env.example must list each one). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

/** Outside production an unset PLATEGA_RATE_PER_USD is this placeholder (production requires it). */
const DEV_PLATEGA_RATE_PER_USD = 100;

/** Outside production, usdt_bep20 runs on the local chain to anvil's account 9 as treasury. */
const DEV_USDT_TREASURY = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

type Variables = z.output<typeof envSchema>;

/** `Config['payments']`: each provider is enabled by its credentials, else null. */
function paymentsConfig(env: Variables, chainPaymentTokens: ChainPaymentTokens) {
  const production = env.NODE_ENV === 'production';
  const usdtChain = env.USDT_BEP20_CHAIN_ID ?? (production ? undefined : 31337);
  const treasury = env.USDT_BEP20_TREASURY ?? (production ? undefined : DEV_USDT_TREASURY);
  const usdtToken = usdtChain === undefined ? undefined : chainPaymentTokens[usdtChain]?.usdt;
  return {
    cryptobot: env.CRYPTOBOT_API_TOKEN
      ? {
          apiUrl: env.CRYPTOBOT_API_URL.replace(/\/+$/, ''),
          token: env.CRYPTOBOT_API_TOKEN,
          acceptedAssets: env.CRYPTOBOT_ACCEPTED_ASSETS,
        }
      : null,
    platega:
      env.PLATEGA_MERCHANT_ID && env.PLATEGA_SECRET
        ? {
            apiUrl: env.PLATEGA_API_URL.replace(/\/+$/, ''),
            merchantId: env.PLATEGA_MERCHANT_ID,
            secret: env.PLATEGA_SECRET,
            paymentMethod: env.PLATEGA_PAYMENT_METHOD,
            currency: env.PLATEGA_CURRENCY,
            /** Units of `currency` per USD (outside production: 100 unless set). */
            ratePerUsd: env.PLATEGA_RATE_PER_USD ?? DEV_PLATEGA_RATE_PER_USD,
            returnUrl: env.PLATEGA_RETURN_URL,
            failedUrl: env.PLATEGA_FAILED_URL,
          }
        : null,
    usdtBep20:
      usdtChain !== undefined && treasury && usdtToken
        ? { chainId: usdtChain, treasury: treasury as `0x${string}`, token: usdtToken }
        : null,
    invoiceTtlMinutes: env.PAYMENT_INVOICE_TTL_MINUTES,
    renewalLeadHours: env.SUBSCRIPTION_RENEWAL_LEAD_HOURS,
    flowPerUsd: env.FLOW_PER_USD,
    topupSettlementHours: env.TOPUP_SETTLEMENT_HOURS,
  };
}

/**
 * The settings as the code uses them, from the parsed variables: grouped, with the defaults
 * that depend on another variable (PORT, NODE_ENV) filled in.
 */
function toConfig(env: Variables) {
  const production = env.NODE_ENV === 'production';
  // Outside production the local development chain (anvil, docs/spec/contract.md §7) is configured.
  const chainRpcUrls: Record<number, string> =
    env.CHAIN_RPC_URLS ?? (production ? {} : { 31337: 'http://127.0.0.1:8545' });
  const launchFactories: LaunchFactories =
    env.LAUNCH_FACTORIES ?? (production ? {} : DEV_LAUNCH_FACTORIES);
  const chainPaymentTokens: ChainPaymentTokens =
    env.CHAIN_PAYMENT_TOKENS ?? (production ? {} : DEV_CHAIN_PAYMENT_TOKENS);
  // The local chain never reorganises (anvil mines on demand): outside production its blocks
  // are final at once, so a graduation is `sentient` without waiting for 12 more.
  const finalityDepth: Record<number, number> =
    env.CHAIN_FINALITY_DEPTH ?? (production ? {} : { 31337: 0 });
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    /** Time to receive a whole request, headers and body (not the response: SSE streams on). */
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    /** An idle keep-alive connection is closed after this (above a load balancer's 60 s). */
    keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
    trustProxy: env.TRUST_PROXY,
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    redisCommandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
    temporal: {
      address: env.TEMPORAL_ADDRESS,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: env.TEMPORAL_TASK_QUEUE,
    },
    siweDomain: env.SIWE_DOMAIN ?? `localhost:${env.PORT}`,
    jwtSecret: env.JWT_SECRET,
    apiKeyPepper: env.API_KEY_PEPPER,
    internalTokens: env.INTERNAL_TOKENS,
    /** Browser origins allowed to call the API (empty: none; docs/decisions.md "Wire"). */
    corsOrigins: env.CORS_ORIGINS,
    botTokens: env.BOT_TOKENS,
    webhookAllowedHosts: csv.parse(
      env.WEBHOOK_ALLOWED_HOSTS ?? (production ? '' : '127.0.0.1,localhost'),
    ),
    /** Its own list: a webhook receiver allow-listed for deliveries is not a page to read. */
    buildFetchAllowedHosts: csv.parse(
      env.BUILD_FETCH_ALLOWED_HOSTS ?? (production ? '' : '127.0.0.1,localhost'),
    ),
    chainRpcUrls,
    launchFactories,
    /** The ERC-20s launches pay in, per chain and role (GET /chains). */
    chainPaymentTokens,
    /**
     * Per chain, the dpnm instance (token address) whose protocol is the chain's FLOW; chains
     * not listed use their first dpnm launch linked to a token of this service.
     */
    chainFlowTokens: env.CHAIN_FLOW_TOKENS,
    chainSync: {
      /** Per chain; chains not listed use `defaultFinalityDepth`. */
      finalityDepth,
      defaultFinalityDepth: DEFAULT_FINALITY_DEPTH,
      /** Per chain; chains not listed start at block 0. */
      startBlocks: env.CHAIN_START_BLOCKS,
      logRange: env.CHAIN_LOG_RANGE,
      pollIntervalMs: env.CHAIN_POLL_INTERVAL_MS,
    },
    launchTimeoutHours: env.LAUNCH_TIMEOUT_HOURS,
    agentCallTimeoutMs: env.AGENT_CALL_TIMEOUT_MS,
    matrix: {
      homeserverUrl: env.MATRIX_HOMESERVER_URL,
      accessToken: env.MATRIX_ACCESS_TOKEN,
      /** Server name → base URL of its federation API (OpenID userinfo), for Matrix login. */
      loginHomeservers: env.MATRIX_LOGIN_HOMESERVERS,
    },
    lowBalanceThresholdFlow: env.LOW_BALANCE_THRESHOLD_FLOW,
    rateLimits: {
      anonymous: env.RATE_LIMIT_ANONYMOUS_RPM,
      user: env.RATE_LIMIT_USER_RPM,
      internal: env.RATE_LIMIT_INTERNAL_RPM,
    },
    build: {
      workspaceRoot: env.BUILD_WORKSPACE_ROOT,
      commandTimeoutMs: env.BUILD_COMMAND_TIMEOUT_MS,
      maxTurns: env.BUILD_MAX_TURNS,
      paceMs: env.BUILD_PACE_MS,
      artifactMaxBytes: env.BUILD_ARTIFACT_MAX_BYTES,
    },
    /** Build steps in flight per worker process, per build lane (its worker's activity slots). */
    buildConcurrency: {
      standard: env.BUILD_STANDARD_CONCURRENCY,
      priority: env.BUILD_PRIORITY_CONCURRENCY,
      dedicated: env.BUILD_DEDICATED_CONCURRENCY,
    },
    /** Null: the deterministic planners drive builds. */
    llm: env.LLM_BASE_URL
      ? {
          baseUrl: env.LLM_BASE_URL.replace(/\/+$/, ''),
          apiKey: env.LLM_API_KEY,
          model: env.LLM_MODEL,
          timeoutMs: env.LLM_TIMEOUT_MS,
        }
      : null,
    aiFill: {
      timeoutMs: env.AI_FILL_TIMEOUT_MS,
      perMinute: env.AI_FILL_PER_MINUTE,
      perDay: env.AI_FILL_PER_DAY,
    },
    media: {
      store: env.MEDIA_S3_BUCKET
        ? {
            kind: 's3' as const,
            endpoint: env.MEDIA_S3_ENDPOINT,
            region: env.MEDIA_S3_REGION,
            bucket: env.MEDIA_S3_BUCKET,
            accessKeyId: env.MEDIA_S3_ACCESS_KEY_ID ?? '',
            secretAccessKey: env.MEDIA_S3_SECRET_ACCESS_KEY ?? '',
          }
        : { kind: 'dir' as const, dir: env.MEDIA_DIR },
      publicBaseUrl: env.MEDIA_PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? null,
      uploadsPerHour: env.MEDIA_UPLOADS_PER_HOUR,
    },
    sse: {
      heartbeatMs: env.SSE_HEARTBEAT_MS,
      retryMs: env.SSE_RETRY_MS,
      standardBatchMs: env.SSE_STANDARD_BATCH_MS,
    },
    payments: paymentsConfig(env, chainPaymentTokens),
    webhookDispatchIntervalMs: env.WEBHOOK_DISPATCH_INTERVAL_MS,
    webhookDeliveryConcurrency: env.WEBHOOK_DELIVERY_CONCURRENCY,
    /**
     * GET /metrics needs `Authorization: Bearer <token>` when set; unset, the route does not
     * exist in production and is open elsewhere (docs/metrics.md).
     */
    metricsToken: env.METRICS_TOKEN,
    /** `<IP>:<port>` of a worker process's Prometheus endpoint; undefined: none. */
    workerMetricsAddress: env.WORKER_METRICS_ADDRESS,
  };
}

/**
 * The environment in, the settings out: each variable is declared once, in `envSchema` (its
 * validation, default and meaning), and `toConfig` puts it in its place; `Config` is what comes
 * out, so it cannot drift from either.
 */
const configSchema = envSchema.transform(toConfig);

export type Config = z.output<typeof configSchema>;
/** Providers are enabled by configuration; a missing one is `provider_unsupported`. */
export type PaymentsConfig = Config['payments'];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(source: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`),
    );
  }
  return parsed.data;
}

/** For entry points: the database URL is mandatory once something needs the database. */
export function requireDatabaseUrl(config: Config): string {
  if (!config.databaseUrl) {
    throw new ConfigError(['DATABASE_URL: is required (npm run dev provides an embedded one)']);
  }
  return config.databaseUrl;
}
