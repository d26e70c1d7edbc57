/**
 * The signal to the subscription lifecycle lives in `shared/payments/lifecycle-signal.ts`, so
 * the API's callbacks and the chain indexer's `usdt_bep20` confirmations send it the same way.
 */
export {
  signalLifecycle,
  type LifecycleDeps,
  type LifecycleSignal,
} from '../../../shared/payments/lifecycle-signal';
