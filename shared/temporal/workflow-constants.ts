/**
 * Values a workflow and its activities must agree on, in one pure module (no imports, no I/O).
 * It is the one module of shared/ the workflow lint lets workflows import values from
 * (eslint.config.mjs), so the worker bundle and the activities read the same constant instead
 * of two copies kept in step by hand.
 */

/** Notifications handed to the delivery workflow per poll; a full batch polls again at once. */
export const NOTIFICATION_BATCH = 20;

/** Outbox rows turned into deliveries per call; a full batch makes the dispatcher poll again at once. */
export const OUTBOX_BATCH = 100;

/** Webhook retries after the first attempt (spec: "retried up to 3 times"), and their backoff bases. */
export const DELIVERY_RETRY_BASES_MS = [1000, 2000, 4000] as const;
