import type { Json } from './schema';

/**
 * The values examples are made of (the builder, example-builder.ts, picks among them): the
 * value of a field by its name (`BY_NAME`), per subject where it differs (an agent's `slug` is
 * `research-assistant`, a token's `atlas`), and the ids, slugs, names, times and addresses
 * they share.
 */

/** What an operation, or the object at hand, is about: decides ids, slugs and names. */
export type Subject =
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

export const AT = {
  created: '2026-11-20T09:15:00.000Z',
  updated: '2026-11-24T10:00:00.000Z',
  soon: '2026-11-24T10:10:00.000Z',
  periodStart: '2026-11-24T00:00:00.000Z',
  periodEnd: '2026-12-24T00:00:00.000Z',
  day: '2026-11-24',
};

export const IDS: Partial<Record<Subject, string>> = {
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

export const WALLET = '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4';
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
export const BASE = 'https://api.example.com';

/** Leave the (optional) field out of the example. */
export const OMIT = Symbol('omit');
export type Candidate = Json | typeof OMIT;

/**
 * Values by field name: a plain value; `alts(...)`, the first that fits the field's schema;
 * or `per({...})`, one per subject (`default` otherwise), itself a value or `alts`.
 */
type Alternatives = { readonly alternatives: Candidate[] };
type ByName = Json | Alternatives | { [subject: string]: Json | Alternatives };
export const PER_SUBJECT = Symbol('per subject');
function per(values: { [subject: string]: Json | Alternatives }): ByName {
  return Object.assign(values, { [PER_SUBJECT]: true });
}
function alts(...alternatives: Candidate[]): Alternatives {
  return { alternatives };
}
export function isAlternatives(value: unknown): value is Alternatives {
  return value !== null && typeof value === 'object' && 'alternatives' in value;
}

export const BY_NAME: Record<string, ByName> = {
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
  // Examples show imageUrl; the upload's id is the alternative to it, never beside it.
  imageMediaId: alts(OMIT, '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'),
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

export const RECORD_KEYS: Record<string, string> = {
  checks: 'postgres',
};
