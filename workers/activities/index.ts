import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Redis } from 'ioredis';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { createChainActivities } from './chain';
import { createHolderRewardActivities } from './holder-rewards';
import { createMaintenanceActivities } from './maintenance';
import { createMarketplaceActivities } from './marketplace';
import { createNotificationActivities } from './notifications';
import { createProjectActivities } from './projects';
import { createSubscriptionActivities } from './subscriptions';
import { createWebhookActivities } from './webhooks';

export interface ActivityDeps {
  orm: MikroORM;
  config: Config;
  /** Commands connection (publishing build events). */
  redis: Redis;
  logger: Logger;
  /** Starts workflows from activities (the webhook dispatcher's deliveries). */
  temporal: Client;
}

/** Every activity the worker registers, built from real dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createChainActivities(deps),
    ...createHolderRewardActivities(deps),
    ...createMaintenanceActivities(deps),
    ...createMarketplaceActivities(deps),
    ...createNotificationActivities(deps),
    ...createProjectActivities(deps),
    ...createSubscriptionActivities(deps),
    ...createWebhookActivities(deps),
  };
}
