import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_foundation } from './Migration20261122000000_foundation';
import { Migration20261122010000_identity } from './Migration20261122010000_identity';
import { Migration20261122020000_catalog } from './Migration20261122020000_catalog';
import { Migration20261122030000_projects } from './Migration20261122030000_projects';
import { Migration20261122040000_webhooks } from './Migration20261122040000_webhooks';
import { Migration20261124100000_tokens_name_order } from './Migration20261124100000_tokens_name_order';
import { Migration20261125000000_marketplace_stats } from './Migration20261125000000_marketplace_stats';
import { Migration20261126000000_flow_ledger_totals } from './Migration20261126000000_flow_ledger_totals';
import { Migration20261126010000_api_key_usage_hourly } from './Migration20261126010000_api_key_usage_hourly';
import { Migration20261127000000_idempotency_scrub_secrets } from './Migration20261127000000_idempotency_scrub_secrets';
import { Migration20261128000000_chain_index } from './Migration20261128000000_chain_index';
import { Migration20261129000000_onchain_user_state } from './Migration20261129000000_onchain_user_state';
import { Migration20261130000000_payments } from './Migration20261130000000_payments';
import { Migration20261130010000_usdt_payments } from './Migration20261130010000_usdt_payments';
import { Migration20261201000000_matrix } from './Migration20261201000000_matrix';
import { Migration20261202000000_market_data } from './Migration20261202000000_market_data';
import { Migration20261203000000_market_events_lz4 } from './Migration20261203000000_market_events_lz4';
import { Migration20261204000000_media } from './Migration20261204000000_media';
import { Migration20261205000000_token_metadata } from './Migration20261205000000_token_metadata';
import { Migration20261206000000_ai_generations } from './Migration20261206000000_ai_generations';
import { Migration20261207000000_approvals } from './Migration20261207000000_approvals';
import { Migration20261208000000_bot_media } from './Migration20261208000000_bot_media';
import { Migration20261209000000_wake_on_insert } from './Migration20261209000000_wake_on_insert';

/** Every committed migration, in order. A new migration file is added here too. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000_foundation', class: Migration20261122000000_foundation },
  { name: 'Migration20261122010000_identity', class: Migration20261122010000_identity },
  { name: 'Migration20261122020000_catalog', class: Migration20261122020000_catalog },
  { name: 'Migration20261122030000_projects', class: Migration20261122030000_projects },
  { name: 'Migration20261122040000_webhooks', class: Migration20261122040000_webhooks },
  {
    name: 'Migration20261124100000_tokens_name_order',
    class: Migration20261124100000_tokens_name_order,
  },
  {
    name: 'Migration20261125000000_marketplace_stats',
    class: Migration20261125000000_marketplace_stats,
  },
  {
    name: 'Migration20261126000000_flow_ledger_totals',
    class: Migration20261126000000_flow_ledger_totals,
  },
  {
    name: 'Migration20261126010000_api_key_usage_hourly',
    class: Migration20261126010000_api_key_usage_hourly,
  },
  {
    name: 'Migration20261127000000_idempotency_scrub_secrets',
    class: Migration20261127000000_idempotency_scrub_secrets,
  },
  { name: 'Migration20261128000000_chain_index', class: Migration20261128000000_chain_index },
  {
    name: 'Migration20261129000000_onchain_user_state',
    class: Migration20261129000000_onchain_user_state,
  },
  { name: 'Migration20261130000000_payments', class: Migration20261130000000_payments },
  {
    name: 'Migration20261130010000_usdt_payments',
    class: Migration20261130010000_usdt_payments,
  },
  { name: 'Migration20261201000000_matrix', class: Migration20261201000000_matrix },
  {
    name: 'Migration20261202000000_market_data',
    class: Migration20261202000000_market_data,
  },
  {
    name: 'Migration20261203000000_market_events_lz4',
    class: Migration20261203000000_market_events_lz4,
  },
  { name: 'Migration20261204000000_media', class: Migration20261204000000_media },
  {
    name: 'Migration20261205000000_token_metadata',
    class: Migration20261205000000_token_metadata,
  },
  {
    name: 'Migration20261206000000_ai_generations',
    class: Migration20261206000000_ai_generations,
  },
  { name: 'Migration20261207000000_approvals', class: Migration20261207000000_approvals },
  { name: 'Migration20261208000000_bot_media', class: Migration20261208000000_bot_media },
  {
    name: 'Migration20261209000000_wake_on_insert',
    class: Migration20261209000000_wake_on_insert,
  },
];
