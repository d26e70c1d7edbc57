import { createHash } from 'node:crypto';

/**
 * Examples for every request body, JSON response and parameter of the OpenAPI document, so a
 * reader (and a renderer's "Try it") sees values like the API's own instead of what a
 * renderer makes up from a schema (`"string"`, `0`, or ±(2^53 − 1) for an unbounded integer).
 *
 * An example a schema gives (`.meta({ examples: [...] })` on a zod schema, at any depth) is
 * used as it is. Anything else is built from the schema: its `const`, `enum` or `default`, else
 * a value for the field's name in what the operation is about (an agent's `slug` is
 * `research-assistant`, a token's `atlas`), else one for its format. Every example must
 * validate against its own schema: test/integration/openapi-examples.test.ts checks them all.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info?: Schema;
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> } & Schema;
  tags?: { name: string; description?: string }[];
  [key: string]: unknown;
}

/** What an operation, or the object at hand, is about: decides ids, slugs and names. */
type Subject =
  | 'agent'
  | 'token'
  | 'project'
  | 'run'
  | 'key'
  | 'webhook'
  | 'delivery'
  | 'ledger'
  | 'subscription'
  | 'notification'
  | 'user'
  | 'chain'
  | 'distribution'
  | 'trade'
  | 'payout'
  | 'other';

// ---------------------------------------------------------------------------------------
// The values

const AT = {
  created: '2026-11-20T09:15:00.000Z',
  updated: '2026-11-24T10:00:00.000Z',
  soon: '2026-11-24T10:10:00.000Z',
  periodStart: '2026-11-24T00:00:00.000Z',
  periodEnd: '2026-12-24T00:00:00.000Z',
  day: '2026-11-24',
};

const IDS: Partial<Record<Subject, string>> = {
  agent: '7d3f6a2e-1c4b-4e8f-9a6d-2b5c8e1f4a73',
  token: 'b1e4c7d2-5a8f-4b3e-8c6d-9f2a1e7b4c58',
  project: 'c5a2e8f1-3d6b-4a9c-8e7f-1b4d2c6a9e30',
  run: '3f1c2a9e-8b7d-4c6e-9a5f-2d4b8e7c1a03',
  key: '6f8d2c1e-4b3a-4f5e-9d7c-1a2b3c4d5e6f',
  webhook: '2c9b7a1e-5d4f-4e3a-8b6c-9f0e1d2a3b4c',
  delivery: '8a1f3e5c-7b9d-4c2e-a6f4-3b5d7e9f1a2c',
  ledger: 'e4b7a1c9-2f5d-4e8b-9c3a-6d1f4b7e2a95',
  subscription: '9e2d5b8a-1c4f-4a7e-b3d6-8f1a4c7e2b59',
  notification: '0b5e2c1a-6f1d-4a8e-9a57-3c2d1e0f4b6a',
  distribution: 'd8c1f4a7-6b2e-4d9a-8f5c-3e7b1a4d6c82',
};

const SLUGS: Partial<Record<Subject, string>> = {
  agent: 'research-assistant',
  token: 'atlas',
  project: 'atlas-landing-page',
};

const NAMES: Partial<Record<Subject, string>> = {
  agent: 'Research Assistant',
  token: 'Atlas',
  key: 'ci-deploy',
  chain: 'Anvil (local)',
};

const WALLET = '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4';
const WALLET_LOWER = WALLET.toLowerCase();
const CONTRACTS = {
  instance: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  factory: '0x7f25f5639eE79FF51af75ba67b89Eba04b363E62',
  protocol: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
  gwt: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
  tree: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
  payment: '0x16E454B91a9A4DA4043Ecad326c31e1b8a378e24',
  upline: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
};
/** Launch calldata (a virtuals `launch(...)` call), abridged. */
const LAUNCH_CALLDATA =
  '0x4f1ef286b1e4c7d25a8f4b3e8c6d9f2a1e7b4c5800000000000000000000000000000000' +
  '00000000000000000000000000000000000000000000000000000000000000c0';
const TX_HASH = '0x8c3f1e0b7a9d2c4e6f5a1b3d8e7c9f0a2b4d6e8f1a3c5e7b9d0f2a4c6e8b1d3f';
const BASE = 'https://api.example.com';

/** Leave the (optional) field out of the example. */
const OMIT = Symbol('omit');
type Candidate = Json | typeof OMIT;

/**
 * Values by field name: a plain value; `alts(...)`, the first that fits the field's schema;
 * or `per({...})`, one per subject (`default` otherwise), itself a value or `alts`.
 */
type Alternatives = { readonly alternatives: Candidate[] };
type ByName = Json | Alternatives | { [subject: string]: Json | Alternatives };
const PER_SUBJECT = Symbol('per subject');
function per(values: { [subject: string]: Json | Alternatives }): ByName {
  return Object.assign(values, { [PER_SUBJECT]: true });
}
function alts(...alternatives: Candidate[]): Alternatives {
  return { alternatives };
}
function isAlternatives(value: unknown): value is Alternatives {
  return value !== null && typeof value === 'object' && 'alternatives' in value;
}

const BY_NAME: Record<string, ByName> = {
  id: per({
    ...IDS,
    user: 42,
    trade: '1843-2',
    default: '5e8a1c3f-9b2d-4f6e-8a7c-1d3b5f7e9a24',
  }),
  slug: per({ ...SLUGS, default: SLUGS.agent! }),
  name: per({ ...NAMES, default: 'Research Assistant' }),
  title: 'Atlas landing page',
  version: '0.1.0',
  docs: `${BASE}/docs`,
  openapi: `${BASE}/openapi.json`,
  health: `${BASE}/healthz`,
  readiness: `${BASE}/readyz`,
  path: per({ payout: 'requests/7', default: 'docs/guides/quick-start.md' }),
  about: 'Quick start: sign in with curl or viem (SIWE), make an API key',
  faucet: `POST ${BASE}/dev/faucet {"amountFlow": 1000}`,
  file: 'build-page.js',
  tag: 'research',
  'idempotency-key': 'notify-build-3f1c2a9e',
  brief: per({
    project:
      'A one-page site for the Atlas token: what it is, live price from the pool, and a buy ' +
      'button that opens the wallet.',
    default: 'Atlas funds community research; holders share 5 % of its agents’ earnings.',
  }),
  description:
    'Answers research questions with cited sources: searches the web, reads the pages and ' +
    'writes a short, referenced summary.',
  tags: ['research', 'summaries'],
  agentSlug: SLUGS.agent!,
  runId: IDS.run!,
  deliveryId: IDS.delivery!,
  '*': 'requests/7',
  cursor: 'eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY',
  nextCursor: 'eyJzIjoidG9rZW5zOnt9IiwicCI6Ilt7XCIyMDI2In1dIn0.Jq3v8TXbQ2rY',
  q: 'atlas',
  tokenSlug: SLUGS.token!,
  agentTemplate: 'fullstack-builder',
  template: 'virtuals',
  ticker: per({ agent: alts(null, 'ATLAS'), default: 'ATLAS' }),
  symbol: 'tVIRTUAL',
  chainId: 31337,
  chainName: NAMES.chain!,
  userId: 42,
  address: per({ user: WALLET_LOWER, default: WALLET }),
  trader: WALLET,
  upline: CONTRACTS.upline,
  instance: CONTRACTS.instance,
  state: 'live',
  // Only while a token has no instance (POST /tokens shows one).
  pendingLaunchTx: alts(OMIT, LAUNCH_CALLDATA),
  launchFactory: CONTRACTS.factory,
  virtuals: CONTRACTS.factory,
  dpnm: '0x5E6AD17B1a1e9baA1371CB6D60056a09C8bAF2dd',
  pair: CONTRACTS.factory,
  flowProtocol: CONTRACTS.protocol,
  gwt: CONTRACTS.gwt,
  phenomenalTree: CONTRACTS.tree,
  lockedPaymentToken: CONTRACTS.payment,
  txHash: TX_HASH,
  signature:
    '0x8a3b7c1d5e9f2a4b6c8d0e1f3a5b7c9d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a1b2c4d6e8f0a1b3c5d7e9f' +
    '1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1b',
  message:
    'localhost:3000 wants you to sign in with your Ethereum account:\n' +
    `${WALLET}\n\nSign in to the agent platform\n\nURI: http://localhost:3000\nVersion: 1\n` +
    'Chain ID: 31337\nNonce: 9f86d081884c7d659a2feaa0c55ad015\n' +
    'Issued At: 2026-11-24T10:00:00.000Z',
  nonce: '9f86d081884c7d659a2feaa0c55ad015',
  openidToken: 'kHYYZvzPLlDUtPoJhpYnYkzG',
  homeserver: 'matrix.org',
  matrixUserId: '@alice:matrix.org',
  endpointUrl: 'https://agents.example.com/research-assistant',
  endpointSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
  key: 'svc_live_4kQm7Zx2Rt9Lp3Vw8Hy6Nc1Bf5Jd0Gs',
  prefix: 'svc_live_4kQm',
  imageUrl: per({
    token: 'https://cdn.example.com/images/atlas.png',
    default: 'https://cdn.example.com/images/research-assistant.png',
  }),
  url: per({ webhook: 'https://hooks.example.com/agent-platform', default: `${BASE}/` }),
  marketplaceUrl: `${BASE}/marketplace/agents/research-assistant`,
  streamUrl: `${BASE}/projects/atlas-landing-page/stream`,
  artifactUrl: `${BASE}/projects/atlas-landing-page/runs/${IDS.run}/artifact`,
  checkoutUrl: 'https://pay.crypt.bot/invoice/IVw7NhLLn7Bq',
  headSha: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  events: ['agent.published', 'project.completed'],
  event: 'agent.published',
  event_id: per({ default: 'msg_2Ruv4bP1x8kBnTQ7hJ3gYw' }),
  room_id: '!kXwqLtBfrGnQhvTuZs:example.org',
  room_alias: '#announcements:example.org',
  reply_to: '$Rqnc-F-dvnEYJTyHq_iKxU2bZ1CI92-kuZq3a5lr5Zg',
  text: '**Build finished**: your project _Atlas_ is live',
  tool: 'web_search',
  tools: alts(['web_search']),
  toolsUsed: ['web_search'],
  model: 'gpt-4o-mini',
  input: { question: 'What changed in EIP-4844?', maxSources: 3 },
  output: {
    answer: 'EIP-4844 adds blob-carrying transactions, making rollup data much cheaper.',
    sources: ['https://eips.ethereum.org/EIPS/eip-4844'],
  },
  metadata: { provider: 'cryptobot', invoiceId: '88231' },
  params: per({
    token: { graduationThreshold: '42000', initialBuy: '100' },
    default: { graduationThreshold: '42000', initialBuy: '100' },
  }),
  data: { slug: SLUGS.project!, runId: IDS.run! },
  route: 'POST /agents/:slug/invoke',
  method: 'POST',
  reason: per({ run: alts(null, 'canceled'), default: 'topup' }),
  refType: 'credit',
  refId: 'cryptobot-inv-88231',
  kind: per({ notification: 'project.completed', default: 'buy' }),
  period: AT.day,
  day: AT.day,
  from: AT.periodStart,
  to: AT.updated,
  since: 'month',
  provider: 'cryptobot',
  tier: 'pro',
  pendingTier: 'plus',
  monetization: 'per_call',
  spend_period: 'month',
  spend_limit_flow: '25.5',
  grace_seconds: 86400,
  rate_limit_rpm: 120,
  // Amounts: FLOW as numbers; token amounts as decimal strings (18 decimals).
  perCallPriceFlow: 1.5,
  perCallFlow: 0.25,
  costFlow: 1.75,
  amountFlow: 250,
  amountUsd: 25,
  delta: 250,
  balanceAfter: 498.25,
  balance: per({ token: '1250.5', default: 498.25 }),
  flowBalance: '1250.5',
  usdtBalance: '310.25',
  gwtBalance: '12.4',
  claimableGWT: '0.85',
  currentPrice: '0.0125',
  lastTradePrice: '0.0125',
  price: '0.0125',
  amountToken: '80000',
  amountPayment: '1000',
  graduationThreshold: '42000',
  reservePayment: '31000',
  reserveToken: '712500000',
  totalSupply: '1000000000',
  poolUsdt: '125000',
  lifetimeFeesUsdt: '3750.5',
  lifetimeGwtMinted: '1820',
  dailyLimitTotal: '1250',
  dailyLimitRemaining: '900',
  incomeLimitRemaining: '1875',
  lifetimeIncome: '420.75',
  progressToGraduation: 0.42,
  estimatedTimeToGraduation: 'P3DT4H',
  share: 0.0125,
  holderRewardPoolFlow: 12.5,
  distributedFlow: 40,
  withdrawableFlow: 180,
  holderRewardsTotal: 3.2,
  spend_period_used: 4.5,
  flowEarned: 412.5,
  flowSpent: 36.75,
  flow_spent: 36.75,
  flow_cost: 1.75,
  rating: alts(4.6, 5),
  averageRating: 4.6,
  ratingCount: 38,
  callsLast30d: 1240,
  calls: 1240,
  p50LatencyMs: 850,
  p50Ms: 850,
  p95Ms: 2100,
  latency_ms: 912,
  duration_ms: 184,
  samples: 500,
  maxSamples: 500,
  requests: 5120,
  errors: 37,
  inputTokens: 812,
  outputTokens: 264,
  input_tokens: 812,
  output_tokens: 264,
  blockNumber: 1843,
  logIndex: 2,
  holdersCount: 318,
  recipients: 57,
  attempt: 1,
  status_code: 200,
  lastEventId: 42,
  subtreeSize: 14,
  treeActiveDaysLeft: 23,
  treeActiveUntil: 1_796_515_200,
  totalActivePositions: 211,
  totalTreePositions: 264,
  treeActivePositions: 211,
  days: 30,
  decimals: 18,
  quests: 10,
  topUp: 200,
  freelance: 0,
  creatorShare: 0,
  subscriptionGrant: 25,
  error: per({
    delivery: alts(null, 'HTTP 500 from https://hooks.example.com/agent-platform'),
    default: 'HTTP 500 from https://hooks.example.com/agent-platform',
  }),
  status: per({
    run: 'completed',
    project: 'completed',
    delivery: 'succeeded',
    webhook: 500,
    default: 200,
  }),
  delivery_id: IDS.delivery!,
  expiresAt: per({ user: AT.soon, default: AT.periodEnd }),
  // Nullable times and prices that are null in the usual state of their object.
  archivedAt: null,
  unpublishedAt: null,
  listedUntil: null,
  expires_at: alts(null, AT.periodEnd),
  subscriptionFlowPerMonth: alts(null, OMIT, 30),
  freemiumDailyCalls: alts(null, OMIT, 20),
  detail: 'The bot is not in the room. Call joinRoom first.',
  planner: 'deterministic',
  level: 'advanced',
  how: 'Call mint(address,uint256) on a payment token, then approve the launch factory',
  mintFunction: 'function mint(address to, uint256 amount)',
  setBalanceRpcMethod: 'anvil_setBalance',
  role: 'virtualsPayment',
  // Booleans that read wrong as `true`.
  revoked: false,
  cancelAtPeriodEnd: false,
  premium: false,
  private: false,
  markdown: true,
  graduated: false,
};

const RECORD_KEYS: Record<string, string> = {
  checks: 'postgres',
};

/** A uuid (version 4 form) from a name: the same name gives the same id. */
function uuidOf(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `4${hex.slice(13, 16)}`,
    `a${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join('-');
}

// ---------------------------------------------------------------------------------------
// The builder

interface Context {
  document: OpenApiDocument;
  subject: Subject;
  /** The property, parameter or component being built. */
  name: string | undefined;
  /** Components being built, to stop at a schema that contains itself. */
  stack: string[];
  /** The field may be left out (an optional property). */
  optional?: boolean;
}

const CYCLE = Symbol('cycle');
type Built = Json | undefined | typeof CYCLE | typeof OMIT;

/** The subject an object is about, from its component or property name. */
function subjectOf(name: string | undefined): Subject | undefined {
  if (!name) return undefined;
  const rules: [RegExp, Subject][] = [
    [/^(user|me|siwelogin|matrixlogin)$/i, 'user'],
    [/webhookdelivery|^deliver|^attempts$/i, 'delivery'],
    [/webhook/i, 'webhook'],
    [/apikey|^rolled_from$|^apiKeys$/i, 'key'],
    [/projectrun|^run$/i, 'run'],
    [/project/i, 'project'],
    [/ledger|^entry$|flowcredit/i, 'ledger'],
    [/notification/i, 'notification'],
    [/distribution/i, 'distribution'],
    [/subscription|^renewal$|checkout/i, 'subscription'],
    [/chain(list)?$/i, 'chain'],
    [/^trade$/i, 'trade'],
    [/token|holder|trade|curve|pool/i, 'token'],
    [/agent/i, 'agent'],
  ];
  for (const [pattern, subject] of rules) if (pattern.test(name)) return subject;
  return undefined;
}

/** The subject of an operation, from its path. */
export function subjectOfPath(path: string): Subject {
  const rules: [RegExp, Subject][] = [
    [/^\/me\/api-keys/, 'key'],
    [/^\/me\/webhooks\/\{id\}\/deliveries/, 'delivery'],
    [/^\/me\/webhooks/, 'webhook'],
    [/^\/(me\/)?projects/, 'project'],
    [/^\/(me\/)?agents|^\/marketplace|^\/search/, 'agent'],
    [/^\/tokens/, 'token'],
    [/^\/chains/, 'chain'],
    [/^\/ledger|^\/internal\/flow/, 'ledger'],
    [/^\/(me\/)?subscription|^\/flow\/topups|^\/payments/, 'subscription'],
    [/^\/me\/notifications/, 'notification'],
    [/^\/me\/payouts/, 'payout'],
    [/^\/p\//, 'project'],
    [/^\/(auth|me)\b/, 'user'],
  ];
  for (const [pattern, subject] of rules) if (pattern.test(path)) return subject;
  return 'other';
}

function componentOf(document: OpenApiDocument, ref: string): [string, Schema] | undefined {
  const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
  const schema = name === undefined ? undefined : document.components?.schemas?.[name];
  return name === undefined || !schema ? undefined : [name, schema];
}

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type as string[];
  if (typeof type === 'string') return [type];
  return [];
}

function jsonType(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a candidate fits a schema (a cheap check of the usual keywords; the test validates). */
function fits(value: Json, schema: Schema, document: OpenApiDocument): boolean {
  if (typeof schema.$ref === 'string') {
    const target = componentOf(document, schema.$ref)?.[1];
    return target !== undefined && fits(value, target, document);
  }
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && !union.some((branch) => fits(value, branch, document))) {
    return false;
  }
  const parts = schema.allOf as Schema[] | undefined;
  if (Array.isArray(parts) && !parts.every((part) => fits(value, part, document))) {
    return false;
  }
  const types = typesOf(schema);
  const type = jsonType(value);
  if (types.length > 0) {
    const ok = types.includes(type) || (type === 'integer' && types.includes('number'));
    if (!ok) return false;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  if (schema.const !== undefined && schema.const !== value) return false;
  if (typeof value === 'string') {
    if (typeof schema.pattern === 'string') {
      try {
        if (!new RegExp(schema.pattern, 'u').test(value)) return false;
      } catch {
        return false;
      }
    }
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
    if (schema.format === 'uuid' && !/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(value)) return false;
    if (schema.format === 'date-time' && !/^\d{4}-\d{2}-\d{2}T/.test(value)) return false;
    if (schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
    const items = schema.items as Schema;
    if (!value.every((item) => fits(item, items, document))) return false;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return false;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) {
      return false;
    }
  }
  return true;
}

/** The dictionary's value for a field, when one fits the schema. */
function named(context: Context, schema: Schema): Json | typeof OMIT | undefined {
  const name = context.name;
  if (name === undefined || !Object.hasOwn(BY_NAME, name)) return undefined;
  let entry = BY_NAME[name] as unknown;
  if (entry !== null && typeof entry === 'object' && PER_SUBJECT in entry) {
    const values = entry as { [subject: string]: unknown };
    entry = values[context.subject] ?? values.default;
    if (entry === undefined) return undefined;
  }
  const candidates = isAlternatives(entry) ? entry.alternatives : [entry as Candidate];
  for (const candidate of candidates) {
    if (candidate === OMIT) {
      if (context.optional) return OMIT;
      continue;
    }
    if (fits(candidate, schema, context.document)) return structuredClone(candidate);
  }
  return undefined;
}

function byFormat(context: Context, schema: Schema): string | undefined {
  switch (schema.format) {
    case 'date-time':
      return /^(created|issued|started)/i.test(context.name ?? '')
        ? AT.created
        : /expire|until|end|renew|reset|next/i.test(context.name ?? '')
          ? AT.periodEnd
          : AT.updated;
    case 'date':
      return AT.day;
    case 'uuid':
      return (
        (context.name === 'id' ? IDS[context.subject] : undefined) ??
        uuidOf(`${context.subject}:${context.name ?? 'id'}`)
      );
    case 'uri':
    case 'url':
      return `${BASE}/`;
    case 'email':
      return 'alice@example.com';
    default:
      return undefined;
  }
}

function byPattern(schema: Schema): string | undefined {
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : '';
  const candidates = [
    WALLET,
    'research-assistant',
    'agent-call-7f3a',
    '0x8a3b7c1d5e9f',
    '42',
    'summaries',
  ];
  for (const candidate of candidates) {
    try {
      if (new RegExp(pattern, 'u').test(candidate)) return candidate;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function numberOf(schema: Schema, integer: boolean): number {
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exclusive =
    typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = integer ? 3 : 12.5;
  if (minimum !== undefined && value < minimum) value = minimum;
  if (exclusive !== undefined && value <= exclusive) value = exclusive + 1;
  if (maximum !== undefined && value > maximum) value = integer ? Math.floor(maximum) : maximum;
  return value;
}

function stringOf(context: Context, schema: Schema): string {
  const value =
    byFormat(context, schema) ??
    (schema.pattern !== undefined ? byPattern(schema) : undefined) ??
    // Last resort: the field's own name as words ("lastEventType" → "last event type").
    (context.name ?? 'value')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/_/g, ' ')
      .toLowerCase();
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return value.padEnd(min, 'x').slice(0, max);
}

function build(schema: unknown, context: Context): Built {
  if (schema === true || schema === undefined) {
    const value = named(context, {});
    return value === OMIT ? OMIT : (value ?? null);
  }
  if (schema === null || typeof schema !== 'object') return null;
  const node = schema as Schema;

  if (typeof node.$ref === 'string') {
    const found = componentOf(context.document, node.$ref);
    if (!found) return null;
    const [component, target] = found;
    if (context.stack.includes(component)) return CYCLE;
    return build(target, {
      ...context,
      subject: subjectOf(component) ?? context.subject,
      stack: [...context.stack, component],
    });
  }

  if (Array.isArray(node.examples) && node.examples.length > 0) {
    return structuredClone(node.examples[0] as Json);
  }
  if (node.example !== undefined) return structuredClone(node.example as Json);
  if (node.const !== undefined) return node.const as Json;

  const fromName = named(context, node);
  if (fromName !== undefined) return fromName;

  if (Array.isArray(node.enum) && node.enum.length > 0) {
    return (node.enum.find((value) => value !== null) ?? null) as Json;
  }

  const union = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(union) && union.length > 0) {
    const branches = union.filter(
      (branch) => !(branch && typeof branch === 'object' && (branch as Schema).type === 'null'),
    );
    for (const branch of branches.length > 0 ? branches : union) {
      const value = build(branch, context);
      if (value !== CYCLE && value !== OMIT) return value;
    }
    return null;
  }

  if (Array.isArray(node.allOf)) {
    const merged: { [key: string]: Json } = {};
    for (const part of node.allOf) {
      const value = build(part, { ...context, optional: false });
      if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(merged, value);
    }
    return merged;
  }

  if (node.default !== undefined && typeof node.default !== 'object') return node.default as Json;

  const types = typesOf(node);
  const type = types.find((candidate) => candidate !== 'null') ?? types[0];
  if (type === undefined) {
    if (node.properties) return objectOf(node, context);
    if (node.items) return arrayOf(node, context);
    return {};
  }
  switch (type) {
    case 'object':
      return objectOf(node, context);
    case 'array':
      return arrayOf(node, context);
    case 'string':
      return stringOf(context, node);
    case 'integer':
      return numberOf(node, true);
    case 'number':
      return numberOf(node, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}

function objectOf(node: Schema, context: Context): Built {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const required = new Set((node.required as string[] | undefined) ?? []);
  const result: { [key: string]: Json } = {};
  for (const [name, property] of Object.entries(properties)) {
    const subject = subjectOf(name) ?? context.subject;
    const optional = !required.has(name);
    const value = build(property, { ...context, name, subject, optional });
    if (value === CYCLE) {
      if (!optional) result[name] = null;
      continue;
    }
    if (value !== undefined && value !== OMIT) result[name] = value;
  }
  const additional = node.additionalProperties;
  if (Object.keys(properties).length === 0 && additional && typeof additional === 'object') {
    const key = RECORD_KEYS[context.name ?? ''];
    if (key !== undefined) {
      const value = build(additional, { ...context, name: key });
      if (value !== CYCLE && value !== OMIT && value !== undefined) result[key] = value;
    }
  }
  return result;
}

function arrayOf(node: Schema, context: Context): Built {
  const item = build(node.items, { ...context, optional: false });
  if (item === CYCLE || item === undefined || item === OMIT) return [];
  const minimum = typeof node.minItems === 'number' ? node.minItems : 0;
  return Array.from({ length: Math.max(1, minimum) }, () => structuredClone(item));
}

/** An example for a schema in the document. */
export function exampleOf(
  document: OpenApiDocument,
  schema: unknown,
  subject: Subject,
  name?: string,
): Json {
  const value = build(schema, { document, subject, name, stack: [] });
  return value === CYCLE || value === OMIT || value === undefined ? null : value;
}

// ---------------------------------------------------------------------------------------
// Where the examples go

type Media = Schema & { schema?: unknown; example?: unknown; examples?: Record<string, Schema> };

/** Media-level `examples` (named, with a summary) for a JSON body. */
function exampleMedia(
  document: OpenApiDocument,
  media: Media,
  subject: Subject,
  summary: string,
): void {
  if (media.examples && Object.keys(media.examples).length > 0) {
    for (const example of Object.values(media.examples)) example.summary ??= summary;
    return;
  }
  if (media.example !== undefined) {
    media.examples = { example: { summary, value: media.example } };
    delete media.example;
    return;
  }
  let schema = media.schema as Schema | undefined;
  if (typeof schema?.$ref === 'string') schema = componentOf(document, schema.$ref)?.[1];
  const given = Array.isArray(schema?.examples) ? (schema.examples as Json[]) : [];
  if (given.length > 1) {
    media.examples = Object.fromEntries(
      given.map((value, i) => [i === 0 ? 'example' : `example${i + 1}`, { summary, value }]),
    );
    return;
  }
  media.examples = { example: { summary, value: exampleOf(document, media.schema, subject) } };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Fills in every example the document lacks (parameters, request bodies, responses). */
export function addExamples(document: OpenApiDocument): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const subject = subjectOfPath(path);
    for (const method of METHODS) {
      const operation = item[method] as Schema | undefined;
      if (!operation) continue;
      for (const parameter of (operation.parameters as Schema[] | undefined) ?? []) {
        if (parameter.example !== undefined || parameter.examples !== undefined) continue;
        const schema = parameter.schema as Schema | undefined;
        if (!schema) continue;
        const given = Array.isArray(schema.examples) ? (schema.examples as Json[]) : [];
        parameter.example =
          given[0] ?? exampleOf(document, schema, subject, String(parameter.name));
      }
      const body = (operation.requestBody as Schema | undefined)?.content as
        Record<string, Media> | undefined;
      const json = body?.['application/json'];
      if (json) exampleMedia(document, json, subject, 'A request');
      const responses = (operation.responses ?? {}) as Record<string, Schema>;
      for (const [status, response] of Object.entries(responses)) {
        const content = response.content as Record<string, Media> | undefined;
        if (!content) continue;
        for (const [type, media] of Object.entries(content)) {
          if (type === 'application/json') {
            exampleMedia(document, media, subject, `${status} response`);
          } else if (media.example === undefined && !media.examples) {
            const schema = media.schema as Schema | undefined;
            const given = Array.isArray(schema?.examples) ? (schema.examples as Json[]) : [];
            if (given.length > 0) media.examples = { example: { value: given[0]! } };
          }
        }
      }
    }
  }
}
