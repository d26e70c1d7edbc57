import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * How long this process was held up, for a test that bounds how soon something happens in it
 * (test/README.md "Parallel files"): on a loaded machine the process is not always scheduled,
 * and then every timer, socket read and request it serves is late by as much. A bound of
 * "what the behaviour needs, plus twice the longest the event loop waited" holds however
 * loaded the machine is, and is the bare bound on a quiet one.
 */
export function watchEventLoop(): {
  /** The longest single delay of the event loop since the watch began, in ms. */
  maxDelayMs(): number;
  stop(): void;
} {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    maxDelayMs: () => histogram.max / 1e6,
    stop: () => histogram.disable(),
  };
}
