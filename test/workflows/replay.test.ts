import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode, Worker, type WorkflowBundle } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { workflowTypes } from '../../shared/temporal';
import { readTestServices } from '../helpers/services';

/**
 * Replays the histories recorded by test/record-histories.ts against the workflow bundle the
 * workers run (docs/decisions.md, "Workflow changes and replay tests"). A change to a workflow's command sequence that is not behind
 * patched() makes these fail here, instead of failing running workflows after a deploy.
 */
const HISTORIES_DIR = join(__dirname, '../fixtures/histories');

interface Payload {
  data?: string;
}
/** The parts of a proto-JSON history event these tests read. */
interface HistoryEvent {
  eventType: string;
  workflowExecutionStartedEventAttributes?: { workflowType: { name: string } };
  workflowExecutionCompletedEventAttributes?: { result?: { payloads: Payload[] } };
  activityTaskScheduledEventAttributes?: { activityType: { name: string } };
  workflowExecutionSignaledEventAttributes?: { signalName: string };
  markerRecordedEventAttributes?: {
    markerName: string;
    details?: Record<string, { payloads: Payload[] }>;
  };
}
interface RecordedHistory {
  events: HistoryEvent[];
}

function loadHistory(name: string): RecordedHistory {
  return JSON.parse(readFileSync(join(HISTORIES_DIR, `${name}.json`), 'utf8')) as RecordedHistory;
}

const decode = (payload: Payload | undefined): unknown =>
  payload?.data === undefined ? null : JSON.parse(Buffer.from(payload.data, 'base64').toString());

const markerData = (event: HistoryEvent, key: string): unknown =>
  decode(event.markerRecordedEventAttributes?.details?.[key]?.payloads[0]);

/** What a history shows about its run: enough to tell the scenarios apart. */
function summarize({ events }: RecordedHistory) {
  const scheduled: Record<string, number> = {};
  const local: Record<string, number> = {};
  for (const event of events) {
    const name = event.activityTaskScheduledEventAttributes?.activityType.name;
    if (name !== undefined) scheduled[name] = (scheduled[name] ?? 0) + 1;
    if (event.markerRecordedEventAttributes?.markerName === 'core_local_activity') {
      const type = (markerData(event, 'data') as { activity_type: string }).activity_type;
      local[type] = (local[type] ?? 0) + 1;
    }
  }
  return {
    workflowType: events[0]?.workflowExecutionStartedEventAttributes?.workflowType.name,
    closedBy: events.at(-1)?.eventType,
    result: decode(events.at(-1)?.workflowExecutionCompletedEventAttributes?.result?.payloads[0]),
    scheduled,
    local,
    signals: events.flatMap(
      (event) => event.workflowExecutionSignaledEventAttributes?.signalName ?? [],
    ),
    patches: events
      .filter((event) => event.markerRecordedEventAttributes?.markerName === 'core_patch')
      .map((event) => (markerData(event, 'patch-data') as { id: string }).id),
  };
}

const COMPLETED = 'EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED';
const TERMINATED = 'EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED';
const CONTINUED_AS_NEW = 'EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW';

/** Every recorded scenario and what its history must show. */
const SCENARIOS: Record<string, ReturnType<typeof summarize>> = {
  'project-build-completed': {
    workflowType: workflowTypes.projectBuild,
    closedBy: COMPLETED,
    result: { finalStatus: 'completed', reason: null },
    scheduled: { beginProjectRun: 1, planProjectRun: 1, runProjectTurn: 4, finishProjectRun: 1 },
    local: {},
    signals: [],
    patches: [],
  },
  'project-build-canceled': {
    workflowType: workflowTypes.projectBuild,
    closedBy: COMPLETED,
    result: { finalStatus: 'canceled', reason: 'the build was canceled' },
    // How many turns ran before the signal landed depends on timing; at least one did.
    scheduled: {
      beginProjectRun: 1,
      planProjectRun: 1,
      runProjectTurn: expect.any(Number),
      finishProjectRun: 1,
    },
    local: {},
    signals: ['cancel'],
    patches: [],
  },
  'project-build-approved': {
    workflowType: workflowTypes.projectBuild,
    closedBy: COMPLETED,
    result: { finalStatus: 'completed', reason: null },
    // The plan asked about (two looks: waiting, approved), then the run_command turn stopped
    // once and ran again: one turn more than the four of an unattended build.
    scheduled: {
      beginProjectRun: 1,
      planProjectRun: 1,
      gateProjectPlan: 2,
      settleApproval: 2,
      runProjectTurn: 5,
      finishProjectRun: 1,
    },
    local: {},
    signals: ['approvalDecided', 'approvalDecided'],
    patches: ['plan-approval'],
  },
  'project-build-failed': {
    workflowType: workflowTypes.projectBuild,
    closedBy: COMPLETED,
    result: { finalStatus: 'failed', reason: 'the LLM endpoint answered 500' },
    scheduled: { beginProjectRun: 1, planProjectRun: 1, finishProjectRun: 1 },
    local: {},
    signals: [],
    patches: [],
  },
  'idempotency-sweep': {
    workflowType: workflowTypes.idempotencySweep,
    closedBy: CONTINUED_AS_NEW,
    result: null,
    scheduled: { purgeExpiredIdempotencyKeys: 2, releaseExpiredFlowHolds: 2 },
    local: {},
    signals: [],
    // One marker per run: later patched() calls of the same id reuse the first decision.
    patches: ['release-expired-flow-holds'],
  },
  'idempotency-sweep-before-flow-holds': {
    workflowType: workflowTypes.idempotencySweep,
    closedBy: CONTINUED_AS_NEW,
    result: null,
    scheduled: { purgeExpiredIdempotencyKeys: 2 },
    local: {},
    signals: [],
    patches: [],
  },
  'webhook-delivery-retried': {
    workflowType: workflowTypes.webhookDelivery,
    closedBy: COMPLETED,
    result: { ok: true, attempts: 3 },
    scheduled: {},
    local: { attemptDelivery: 3 },
    signals: [],
    patches: ['local-delivery-attempts'],
  },
  // Recorded by the code before the patch (commit a3def24): attempts as regular activities.
  'webhook-delivery-before-local-attempts': {
    workflowType: workflowTypes.webhookDelivery,
    closedBy: COMPLETED,
    result: { ok: true, attempts: 3 },
    scheduled: { attemptDelivery: 3 },
    local: {},
    signals: [],
    patches: [],
  },
  'webhook-dispatch': {
    workflowType: workflowTypes.webhookDispatch,
    closedBy: CONTINUED_AS_NEW,
    result: null,
    scheduled: {},
    local: { dispatchOutboxBatch: 3 },
    signals: [],
    patches: ['single-step-dispatch'],
  },
  'marketplace-stats-refresh': {
    workflowType: workflowTypes.marketplaceStatsRefresh,
    closedBy: CONTINUED_AS_NEW,
    result: null,
    scheduled: { refreshMarketplaceStats: 2 },
    local: {},
    signals: [],
    patches: [],
  },
  'chain-sync': {
    workflowType: workflowTypes.chainSync,
    closedBy: CONTINUED_AS_NEW,
    result: null,
    scheduled: { syncChain: 3 },
    local: {},
    signals: ['nudge'],
    patches: [],
  },
  'holder-rewards-schedule': {
    workflowType: workflowTypes.holderRewardsSchedule,
    closedBy: CONTINUED_AS_NEW,
    result: null,
    scheduled: { startDueHolderRewards: 2 },
    local: {},
    signals: [],
    patches: [],
  },
  'holder-reward-distribution': {
    workflowType: workflowTypes.holderRewardDistribution,
    closedBy: COMPLETED,
    result: { distributionId: null, credited: 0, creditedFlow: 0 },
    scheduled: { distributeHolderRewards: 1 },
    local: {},
    signals: [],
    patches: [],
  },
  'payments-reconcile': {
    workflowType: workflowTypes.paymentsReconcile,
    closedBy: CONTINUED_AS_NEW,
    result: null,
    scheduled: { reconcilePayments: 2 },
    local: {},
    signals: [],
    patches: [],
  },
  // Activated by a signal-with-start, then told of a cancel; terminated while it waits.
  'subscription-activated': {
    workflowType: workflowTypes.subscription,
    closedBy: TERMINATED,
    result: null,
    scheduled: { loadSubscription: 2, applySubscriptionPayment: 1 },
    local: {},
    signals: ['paymentConfirmed', 'changed'],
    patches: [],
  },
  // A prepaid period ends: the next one starts and the run continues as new.
  'subscription-renewed': {
    workflowType: workflowTypes.subscription,
    closedBy: CONTINUED_AS_NEW,
    result: null,
    scheduled: { loadSubscription: 1, reconcileSubscriptionPayments: 1, endSubscriptionPeriod: 1 },
    local: {},
    signals: [],
    patches: [],
  },
  // One linked user's notification delivered by the first poll, a nudge, three polls in all.
  'notification-delivery': {
    workflowType: workflowTypes.notificationDelivery,
    closedBy: CONTINUED_AS_NEW,
    result: null,
    scheduled: { deliverNotification: 1 },
    local: { dueNotifications: 3 },
    signals: ['nudge'],
    patches: [],
  },
  // Recorded by the code before the patch (commit a3def24): each poll in three activities.
  'webhook-dispatch-before-single-step': {
    workflowType: workflowTypes.webhookDispatch,
    closedBy: CONTINUED_AS_NEW,
    result: null,
    scheduled: { dispatchOutbox: 3, startDeliveryWorkflows: 1, markOutboxDispatched: 3 },
    local: {},
    signals: [],
    patches: [],
  },
};
const NAMES = Object.keys(SCENARIOS);

describe('recorded workflow histories', () => {
  it('are exactly the recorded scenarios, each showing the run its name says', () => {
    const files = readdirSync(HISTORIES_DIR).filter((file) => file.endsWith('.json'));
    expect(files.sort()).toEqual(NAMES.map((name) => `${name}.json`).sort());
    for (const name of NAMES) {
      expect({ name, ...summarize(loadHistory(name)) }).toEqual({ name, ...SCENARIOS[name] });
    }
  });
});

describe('replay against the current workflow code', () => {
  it.each(NAMES)('%s replays without a determinism error', async (name) => {
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: { codePath: readTestServices().workflowBundlePath }, replayName: name },
        loadHistory(name),
      ),
    ).resolves.toBeUndefined();
  });
});

describe('replay against different workflow code', () => {
  let before: WorkflowBundle;
  beforeAll(async () => {
    // The sweep as it was before patched('release-expired-flow-holds'), under the same type.
    before = await bundleWorkflowCode({
      workflowsPath: require.resolve('../fixtures/workflows-before-flow-holds'),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
    });
  });

  it('fails with a DeterminismViolationError when the command sequence differs', async () => {
    // The history holds the patch marker and releaseExpiredFlowHolds, which this code never
    // asks for: the replay must refuse it, as a worker would refuse the running workflow.
    const replay = Worker.runReplayHistory(
      { workflowBundle: before, replayName: 'drift' },
      loadHistory('idempotency-sweep'),
    );
    await expect(replay).rejects.toBeInstanceOf(DeterminismViolationError);
    await expect(replay).rejects.toThrow(/nondeterminism error/i);
  });

  it('still replays the history that code recorded (the control for the test above)', async () => {
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: before, replayName: 'control' },
        loadHistory('idempotency-sweep-before-flow-holds'),
      ),
    ).resolves.toBeUndefined();
  });
});
