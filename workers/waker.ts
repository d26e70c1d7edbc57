import type { Client } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { createPublicClient, http } from 'viem';
import type { Config } from '../shared/config';
import type { Logger } from '../shared/logger';
import { workflowIds } from '../shared/temporal';

/**
 * Wakes the polling loops when there is work, so that they need not poll while there is none
 * (docs/decisions.md "Idle"): the outbox dispatcher and notification delivery on a committed
 * insert (PostgreSQL LISTEN on the channels the insert triggers NOTIFY), each chain indexer on
 * a new block (the node's block number, read every `CHAIN_POLL_INTERVAL_MS` here: one cheap
 * RPC call, no workflow task). Waking is a `nudge` signal; the loops sleep up to a minute
 * otherwise (workflows/idle.ts), which bounds the delay should a nudge be lost. One per worker
 * process; several processes nudging the same loop only end its sleep sooner.
 */

/** Channel → the loop it wakes (workflow id by task queue). */
const CHANNELS = {
  outbox_events_added: workflowIds.webhookDispatch,
  notifications_added: workflowIds.notificationDelivery,
} as const;

const RECONNECT_MS = 1_000;

export interface Waker {
  stop(): Promise<void>;
}

export function startWaker(deps: { config: Config; temporal: Client; logger: Logger }): Waker {
  const { config, temporal } = deps;
  const logger = deps.logger.child({ component: 'waker' });
  const taskQueue = config.temporal.taskQueue;
  let stopped = false;

  /** One signal in flight per loop; a wake-up meanwhile sends one more after it. */
  const inFlight = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const nudge = (workflowId: string): void => {
    if (stopped) return;
    if (inFlight.has(workflowId)) {
      again.add(workflowId);
      return;
    }
    const sent = temporal.workflow
      .getHandle(workflowId)
      .signal('nudge')
      .catch((err: unknown) => {
        // Not started (yet), or finished between runs: its next run looks anyway.
        logger.debug({ err, workflowId }, 'nudge not delivered');
      })
      .finally(() => {
        inFlight.delete(workflowId);
        if (again.delete(workflowId)) nudge(workflowId);
      });
    inFlight.set(workflowId, sent);
  };
  const nudgeAll = () => {
    for (const idOf of Object.values(CHANNELS)) nudge(idOf(taskQueue));
  };

  // LISTEN on a connection of its own, reconnected after any failure; a reconnect nudges
  // every loop, since a NOTIFY sent while it was away is gone.
  let listener: PgClient | null = null;
  let retry: NodeJS.Timeout | null = null;
  const listen = async (): Promise<void> => {
    if (stopped || !config.databaseUrl) return;
    const client = new PgClient({
      connectionString: config.databaseUrl,
      application_name: 'waker',
    });
    const reconnect = (err?: unknown) => {
      if (listener !== client) return;
      listener = null;
      client.end().catch(() => undefined);
      if (stopped) return;
      logger.warn({ err }, 'waker: LISTEN connection lost; reconnecting');
      retry = setTimeout(() => void listen(), RECONNECT_MS);
    };
    listener = client;
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    client.on('notification', (message) => {
      const idOf = CHANNELS[message.channel as keyof typeof CHANNELS];
      if (idOf) nudge(idOf(taskQueue));
    });
    try {
      await client.connect();
      for (const channel of Object.keys(CHANNELS)) await client.query(`listen ${channel}`);
      nudgeAll();
    } catch (err) {
      reconnect(err);
    }
  };
  void listen();

  // A new block wakes its chain's indexer.
  const unwatch = Object.entries(config.chainRpcUrls).map(([chainId, url]) =>
    createPublicClient({ cacheTime: 0, transport: http(url, { retryCount: 0 }) }).watchBlockNumber({
      pollingInterval: config.chainSync.pollIntervalMs,
      emitMissed: false,
      onBlockNumber: () => nudge(workflowIds.chainSync(Number(chainId), taskQueue)),
      // The indexer reports an unreachable node itself; here it only means no wake-up.
      onError: (err) => logger.debug({ err, chainId }, 'waker: block number not read'),
    }),
  );

  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      for (const stop of unwatch) stop();
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
      await Promise.all(inFlight.values());
    },
  };
}
