import type { WorkflowHandle } from '@temporalio/client';

/**
 * Reading an idle polling loop's sleeps from its history (workflows/idle.ts): the timer it
 * sleeps on, and whether a `nudge` ended that sleep before the timer fired.
 */

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;
type HistoryEvent = NonNullable<History['events']>[number];

const millis = (duration: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(duration?.seconds ?? 0) * 1000 + Math.round((duration?.nanos ?? 0) / 1e6);

/** A timer started and neither fired nor cancelled: what the loop sleeps on now. */
function pendingTimer(events: HistoryEvent[]): { timerId: string; ms: number } | null {
  const ended = new Set(
    events
      .map((event) =>
        String(
          event.timerFiredEventAttributes?.timerId ??
            event.timerCanceledEventAttributes?.timerId ??
            '',
        ),
      )
      .filter(Boolean),
  );
  for (const event of [...events].reverse()) {
    const started = event.timerStartedEventAttributes;
    if (!started?.timerId) continue;
    if (ended.has(started.timerId)) return null;
    return { timerId: started.timerId, ms: millis(started.startToFireTimeout) };
  }
  return null;
}

/**
 * Waits until the loop sleeps on a timer of at least `atLeastMs` (it has backed off), and
 * returns that timer's id.
 */
export async function backedOffSleep(
  handle: WorkflowHandle,
  atLeastMs: number,
  timeoutMs: number,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last: { ms: number } | null = null;
  while (Date.now() < deadline) {
    const events = (await handle.fetchHistory()).events ?? [];
    const timer = pendingTimer(events);
    if (timer && timer.ms >= atLeastMs) return timer.timerId;
    last = timer ?? last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `the loop did not back off to a sleep of ${atLeastMs} ms within ${timeoutMs} ms ` +
      `(last sleep: ${last?.ms ?? 'none'} ms)`,
  );
}

/** How the sleep on `timerId` ended, as the history says now. */
async function sleepEnd(
  handle: WorkflowHandle,
  timerId: string,
): Promise<'nudge' | 'timer' | 'sleeping'> {
  const events = (await handle.fetchHistory()).events ?? [];
  const started = events.findIndex(
    (event) => event.timerStartedEventAttributes?.timerId === timerId,
  );
  const after = events.slice(started + 1);
  if (after.some((event) => event.timerFiredEventAttributes?.timerId === timerId)) return 'timer';
  const cancelled = after.some((event) => event.timerCanceledEventAttributes?.timerId === timerId);
  const nudged = after.some(
    (event) => event.workflowExecutionSignaledEventAttributes?.signalName === 'nudge',
  );
  return cancelled && nudged ? 'nudge' : 'sleeping';
}

/**
 * How the sleep on `timerId` ended: by a nudge (the timer cancelled), or by the timer. The work
 * the loop did after waking can be visible before the workflow task that cancelled the timer
 * is recorded, so the history is read until it says, for up to `timeoutMs`.
 */
export async function howSleepEnded(
  handle: WorkflowHandle,
  timerId: string,
  timeoutMs = 30_000,
): Promise<'nudge' | 'timer' | 'sleeping'> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const end = await sleepEnd(handle, timerId);
    if (end !== 'sleeping' || Date.now() > deadline) return end;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
