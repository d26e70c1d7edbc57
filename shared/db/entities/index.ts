import { Token } from './token';
import { Agent } from './agent';
import { AgentToolPrice } from './agent-tool-price';
import { AgentCall } from './agent-call';
import { AgentDailyStat } from './agent-daily-stat';
import { AgentSubscription } from './agent-subscription';
import { AgentFreeCall } from './agent-free-call';
import { AgentRating } from './agent-rating';
import { AgentMarketDirty, AgentMarketStats } from './agent-market-stats';
import { FlowAccount } from './flow-account';
import { FlowLedgerTotals } from './flow-ledger-totals';
import { FlowHold } from './flow-hold';
import { LedgerEntry } from './ledger-entry';
import { ApiKey } from './api-key';
import { ApiKeyUsage } from './api-key-usage';
import { ApiKeyUsageHourly } from './api-key-usage-hourly';
import { IdempotencyKey } from './idempotency-key';
import { Session } from './session';
import { Webhook } from './webhook';
import { WebhookDelivery } from './webhook-delivery';
import { WebhookDeliveryAttempt } from './webhook-delivery-attempt';
import { Project } from './project';
import { ProjectRun } from './project-run';
import { ProjectEvent } from './project-event';
import { ProjectSubscription } from './project-subscription';
import { Notification } from './notification';
import { MatrixDirectRoom } from './matrix-direct-room';
import { OutboxEvent } from './outbox-event';
import { Payment } from './payment';
import { Subscription } from './subscription';
import { User } from './user';
import { ChainBlock, ChainCursor } from './chain-cursor';
import { ChainEvent } from './chain-event';
import { ChainLaunch } from './chain-launch';
import { DpnmEarning, DpnmSubtreeLevel, DpnmTreeNode, DpnmTreePath } from './dpnm-tree';
import { HolderRewardDistribution, HolderRewardPayout } from './holder-reward';
import { TokenHolder, TokenHolderTotals } from './token-holder';
import { TokenTrade } from './token-trade';
import { TokenCandle } from './token-candle';
import { TokenMarket } from './token-market';
import { MarketEvent } from './market-event';
import { Media } from './media';
import { AiGeneration } from './ai-generation';
import { BotMedia } from './bot-media';
import { ApprovalAuditEntry, ApprovalPolicy, ApprovalRequest } from './approval';
import { TokenTransfer } from './token-transfer';
import { TreasuryTransfer } from './treasury-transfer';

// Entities other modules import from here; the rest are imported from their own files.
export { ApiKey } from './api-key';
export { User } from './user';
export { Token } from './token';
export { Agent } from './agent';
export { AgentToolPrice } from './agent-tool-price';
export { LedgerEntry } from './ledger-entry';
export { Project } from './project';
export { ProjectRun } from './project-run';
export { ProjectSubscription } from './project-subscription';
export { Webhook } from './webhook';
export { WebhookDelivery } from './webhook-delivery';

/** Every entity, registered explicitly (no folder scanning, works the same from ts and js). */
export const entities = [
  User,
  IdempotencyKey,
  Session,
  ApiKey,
  ApiKeyUsage,
  ApiKeyUsageHourly,
  Token,
  ChainCursor,
  ChainBlock,
  ChainLaunch,
  ChainEvent,
  TokenTransfer,
  TokenHolder,
  TokenHolderTotals,
  TokenTrade,
  TokenCandle,
  TokenMarket,
  MarketEvent,
  Media,
  AiGeneration,
  BotMedia,
  ApprovalPolicy,
  ApprovalRequest,
  ApprovalAuditEntry,
  DpnmTreeNode,
  DpnmTreePath,
  DpnmSubtreeLevel,
  DpnmEarning,
  HolderRewardDistribution,
  HolderRewardPayout,
  Agent,
  AgentToolPrice,
  AgentCall,
  AgentDailyStat,
  AgentSubscription,
  AgentFreeCall,
  AgentRating,
  AgentMarketStats,
  AgentMarketDirty,
  FlowAccount,
  FlowLedgerTotals,
  FlowHold,
  LedgerEntry,
  Project,
  ProjectRun,
  ProjectEvent,
  ProjectSubscription,
  Notification,
  MatrixDirectRoom,
  Payment,
  TreasuryTransfer,
  OutboxEvent,
  Subscription,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryAttempt,
];
