// @ts-check
// The live build page's script (api/pages/build-page.ts): plain JavaScript, no framework and
// no build step. It follows the project's SSE stream with EventSource and writes every event
// into the page, as text only (the page's CSP requires Trusted Types: no HTML is ever parsed).
//
// Resuming: EventSource sends Last-Event-ID itself when it reconnects. Across a reload of the
// page, the events shown so far and the last id are kept in sessionStorage (per tab, per
// project); the page shows them again and connects with `?lastEventId=<id>`, so the stream
// sends only what is newer: nothing is shown twice and nothing is missed. When the events do
// not fit in sessionStorage, nothing is kept and a reload replays the stream from the start.
//
// Type-checked against the DOM through its JSDoc (tsconfig.browser.json, run by `npm run
// typecheck`) and linted with the browser's globals (eslint.config.mjs); still no build step:
// the bytes served are this file's.
'use strict';

/**
 * @template {import('../../../shared/projects/events').ProjectEventType} T
 * @typedef {import('../../../shared/projects/events').ProjectEventDataOf<T>} DataOf
 */

/**
 * An event's data as the page reads it: any field of any type of event
 * (shared/projects/events.ts), each of them maybe missing, since the page shows whatever
 * arrives (or was kept) without trusting it.
 * @typedef {Partial<DataOf<'plan'> & DataOf<'tool_call'> & DataOf<'tool_result'> &
 *   DataOf<'message'> & DataOf<'screenshot'> & DataOf<'commit'> & DataOf<'error'> &
 *   DataOf<'done'> & Omit<DataOf<'approval_requested'>, 'kind'> &
 *   DataOf<'approval_resolved'> & { kind: string }>} EventData
 */

/** @typedef {{ id: number, type: string, data: EventData }} ShownEvent */

/**
 * What a reload finds in sessionStorage.
 * @typedef {{ version: number, lastEventId: number, events: ShownEvent[] }} Saved
 */

(() => {
  const page = document.getElementById('build');
  if (!page) return;
  // Not null, as the functions below see it (hoisted, they do not see the check above).
  const root = page;

  const EVENT_TYPES = [
    'plan',
    'tool_call',
    'tool_result',
    'message',
    'screenshot',
    'commit',
    'error',
    'done',
    'approval_requested',
    'approval_resolved',
  ];
  /** @type {Record<string, string>} */
  const LABELS = {
    plan: 'Plan',
    tool_call: 'Tool call',
    tool_result: 'Tool result',
    message: 'Message',
    screenshot: 'Screenshot',
    commit: 'Commit',
    error: 'Error',
    done: 'Done',
    approval_requested: 'Approval requested',
    approval_resolved: 'Approval resolved',
  };
  /** @type {Record<string, string>} */
  const DECISIONS = {
    approved: 'Approved',
    rejected: 'Rejected',
    expired: 'Expired unanswered',
    canceled: 'Canceled with the build',
  };
  /** @type {Record<string, string>} */
  const FINAL = { completed: 'Completed', failed: 'Failed', canceled: 'Canceled' };
  /** Characters of one string kept (and shown); the rest is summarised. */
  const MAX_TEXT = 2000;
  const MAX_LIST = 200;
  const MAX_RETRIES = 6;
  const STORAGE_VERSION = 1;

  // The page (build-page.ts) always renders these attributes.
  const projectId = root.dataset.projectId;
  const streamUrl = /** @type {string} */ (root.dataset.streamUrl);
  const slug = root.dataset.slug;
  /** The viewer owns the project: waiting requests get Approve and Reject buttons. */
  const viewerOwns = root.dataset.owner === 'true';
  const currentRunId = root.dataset.runId || null;
  /** The project's newest event id when the page was rendered: the status is as of it. */
  const renderedLastId = Number(root.dataset.lastEventId) || 0;
  const storageKey = `build-page:${projectId}`;

  /**
   * The page (build-page.ts) renders every element this script writes to.
   * @param {string} id
   */
  const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const ui = {
    status: byId('project-status'),
    connection: byId('connection'),
    final: byId('final-status'),
    planRevision: byId('plan-revision'),
    plan: byId('plan'),
    toolCalls: byId('tool-calls'),
    messages: byId('messages'),
    commits: byId('commits'),
    events: byId('events'),
    eventCount: byId('event-count'),
    approvals: byId('approvals'),
  };

  let lastId = 0;
  /**
   * Every event shown, oldest first, as kept for a reload.
   * @type {ShownEvent[]}
   */
  let shown = [];
  let finished = false;
  /** @type {EventSource | null} */
  let source = null;
  let retries = 0;
  let persist = true;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let saveTimer = null;
  /**
   * The result slot of each tool call shown, by call id.
   * @type {Map<unknown, HTMLElement>}
   */
  const resultSlots = new Map();
  /**
   * Each approval request shown, by id: its item, for the decision to update.
   * @type {Map<unknown, HTMLElement>}
   */
  const approvalItems = new Map();

  // ---- DOM helpers: elements and text nodes only ----

  /**
   * @param {string} tag
   * @param {Record<string, string | number | null | undefined> | null} [attributes]
   * @param {...(Node | string | null | undefined | false)} children
   */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value !== undefined && value !== null) node.setAttribute(name, String(value));
    }
    for (const child of children) {
      if (child !== undefined && child !== null && child !== false) node.append(child);
    }
    return node;
  }

  /**
   * @param {HTMLElement} list
   * @param {HTMLElement} item
   */
  function addItem(list, item) {
    list.append(item);
    const empty = /** @type {HTMLElement | null} */ (
      document.querySelector(`[data-empty-for="${list.id}"]`)
    );
    if (empty) empty.hidden = true;
  }

  /**
   * @param {unknown} text
   * @param {number} max
   */
  function shorten(text, max) {
    const value = String(text);
    return value.length > max ? `${value.slice(0, max - 1)}…` : value;
  }

  /**
   * The data as kept and shown: long strings and lists cut, so a reload can keep them.
   * @param {unknown} value
   * @param {number} [depth]
   * @returns {unknown}
   */
  function compact(value, depth) {
    const level = depth || 0;
    if (typeof value === 'string') {
      if (value.length <= MAX_TEXT) return value;
      return `${value.slice(0, MAX_TEXT)}… (${value.length - MAX_TEXT} more characters)`;
    }
    if (Array.isArray(value)) {
      const kept = value.slice(0, MAX_LIST).map((item) => compact(item, level + 1));
      if (value.length > MAX_LIST) kept.push(`… ${value.length - MAX_LIST} more`);
      return kept;
    }
    if (value && typeof value === 'object') {
      if (level > 8) return '…';
      /** @type {Record<string, unknown>} */
      const out = {};
      for (const [key, item] of Object.entries(value)) out[key] = compact(item, level + 1);
      return out;
    }
    return value;
  }

  /** @param {unknown} value */
  function pretty(value) {
    try {
      return JSON.stringify(value, null, 2) ?? '';
    } catch {
      return String(value);
    }
  }

  // ---- what each event shows ----

  /** @param {unknown} value */
  function argsSummary(value) {
    if (!value || typeof value !== 'object') {
      // Parsed JSON: anything but an object is a primitive.
      const primitive = /** @type {string | number | boolean | null | undefined} */ (value);
      return primitive === undefined ? '' : String(primitive);
    }
    const args = /** @type {Record<string, unknown>} */ (value);
    if (typeof args.path === 'string') return args.path;
    if (typeof args.command === 'string') {
      const rest = Array.isArray(args.args) ? args.args.join(' ') : '';
      return `${args.command} ${rest}`.trim();
    }
    if (typeof args.message === 'string') return args.message;
    return shorten(JSON.stringify(args), 120);
  }

  /** @param {EventData} data */
  function resultSummary(data) {
    if (typeof data.error === 'string') return `error: ${data.error}`;
    if (data.result && typeof data.result === 'object') {
      const result = /** @type {Record<string, unknown>} */ (data.result);
      if (typeof result.exitCode === 'number') return `exit code ${result.exitCode}`;
      if (typeof result.sha === 'string') return `committed ${result.sha.slice(0, 7)}`;
    }
    return 'ok';
  }

  /**
   * @param {string} type
   * @param {EventData} data
   */
  function summary(type, data) {
    switch (type) {
      case 'plan':
        return `revision ${data.revision}, ${(data.steps || []).length} steps`;
      case 'tool_call':
        return `${data.tool} ${argsSummary(data.args)}`.trim();
      case 'tool_result':
        return `${data.callId}: ${resultSummary(data)}`;
      case 'message':
        return shorten(data.text, 160);
      case 'screenshot':
        return data.caption || data.url;
      case 'commit':
        return `${String(data.sha).slice(0, 7)} ${data.message}`;
      case 'error':
        return `${data.message} (${data.recoverable ? 'recoverable' : 'not recoverable'})`;
      case 'done':
        return `run ${String(data.runId).slice(0, 8)} ${data.finalStatus}`;
      case 'approval_requested':
        return `${data.kind === 'plan' ? 'the plan' : data.tool} waits for the owner`;
      case 'approval_resolved':
        return `${DECISIONS[String(data.decision)] || data.decision}`;
      default:
        return '';
    }
  }

  /** @param {EventData} data */
  function showPlan(data) {
    const steps = Array.isArray(data.steps) ? data.steps : [];
    ui.planRevision.textContent = `Revision ${data.revision}, ${steps.length} steps`;
    ui.planRevision.classList.remove('empty');
    ui.plan.replaceChildren(...steps.map((step) => el('li', null, String(step))));
  }

  /** @param {EventData} data */
  function showToolCall(data) {
    const slot = el('span', { class: 'result' }, 'waiting for its result');
    resultSlots.set(data.callId, slot);
    addItem(
      ui.toolCalls,
      el(
        'li',
        null,
        el('span', { class: 'tool' }, String(data.tool)),
        ' ',
        el('code', null, argsSummary(data.args)),
        el('br'),
        'Result: ',
        slot,
        el(
          'details',
          null,
          el('summary', null, 'Arguments'),
          el('pre', null, el('code', null, pretty(data.args))),
        ),
      ),
    );
  }

  /** @param {EventData} data */
  function showToolResult(data) {
    const slot = resultSlots.get(data.callId);
    if (!slot) return;
    slot.textContent = resultSummary(data);
    slot.dataset.outcome = typeof data.error === 'string' ? 'error' : 'ok';
  }

  /**
   * @param {string} type
   * @param {EventData} data
   */
  function showMessage(type, data) {
    if (type === 'message') {
      addItem(ui.messages, el('li', { class: 'message' }, el('p', null, String(data.text))));
    } else if (type === 'error') {
      const label = data.recoverable ? 'Error (recoverable): ' : 'Error: ';
      addItem(
        ui.messages,
        el(
          'li',
          { class: 'error' },
          el('p', null, el('strong', null, label), String(data.message)),
        ),
      );
    } else if (type === 'screenshot') {
      const text = data.caption || data.url;
      const safe = /^(https?:\/\/|\/)/i.test(String(data.url));
      addItem(
        ui.messages,
        el(
          'li',
          { class: 'screenshot' },
          el(
            'p',
            null,
            el('strong', null, 'Screenshot: '),
            safe ? el('a', { href: data.url }, String(text)) : String(text),
          ),
        ),
      );
    }
  }

  /** @param {EventData} data */
  function showCommit(data) {
    const files = Array.isArray(data.files) ? data.files : [];
    const total = typeof data.filesTotal === 'number' ? data.filesTotal : files.length;
    addItem(
      ui.commits,
      el(
        'li',
        null,
        el('code', { class: 'sha', title: data.sha }, String(data.sha).slice(0, 7)),
        ' ',
        String(data.message),
        ' ',
        el('span', { class: 'muted' }, `(${total} ${total === 1 ? 'file' : 'files'})`),
        files.length > 0
          ? el(
              'details',
              null,
              el('summary', null, 'Files'),
              el(
                'ul',
                null,
                ...files.map((file) => el('li', null, el('code', null, String(file)))),
              ),
            )
          : null,
      ),
    );
  }

  /** @param {EventData} data */
  function showApprovalRequest(data) {
    const what =
      data.kind === 'plan' ? 'The plan' : `${data.tool} ${argsSummary(data.argsPreview)}`;
    const state = el('p', { class: 'approval-state' }, `Waits until ${String(data.expiresAt)}.`);
    const item = el(
      'li',
      { 'data-approval-id': data.approvalId, 'data-approval-status': 'pending' },
      el('p', null, el('strong', null, what.trim())),
      el(
        'details',
        null,
        el('summary', null, 'Arguments'),
        el('pre', null, el('code', null, pretty(data.argsPreview))),
      ),
      state,
    );
    if (viewerOwns && !finished) item.append(decisionControls(data, state));
    approvalItems.set(data.approvalId, item);
    addItem(ui.approvals, item);
  }

  /**
   * The owner's Approve and Reject: the API's own endpoints, with the page's session cookie.
   * The approval names the digest of the arguments shown, as every approval must.
   * @param {EventData} data
   * @param {HTMLElement} state
   */
  function decisionControls(data, state) {
    const comment = /** @type {HTMLInputElement} */ (
      el('input', {
        type: 'text',
        name: 'comment',
        placeholder: 'Why not? (told to the agent)',
        'aria-label': 'Comment for a rejection',
        maxlength: 2000,
      })
    );
    const approve = el('button', { type: 'button', class: 'approve' }, 'Approve');
    const reject = el('button', { type: 'button', class: 'reject' }, 'Reject');
    const controls = el('div', { class: 'approval-controls' }, approve, ' ', reject, ' ', comment);
    /**
     * @param {'approve' | 'reject'} action
     * @param {Record<string, unknown>} body
     */
    async function decide(action, body) {
      for (const button of [approve, reject]) button.setAttribute('disabled', '');
      state.textContent = 'Sending…';
      try {
        const response = await fetch(
          `/projects/${slug}/approvals/${String(data.approvalId)}/${action}`,
          {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          },
        );
        if (response.ok) {
          state.textContent = action === 'approve' ? 'Approved; the build goes on.' : 'Rejected.';
          controls.remove();
          return;
        }
        /** @type {unknown} */
        const answer = await response.json().catch(() => null);
        const failure = /** @type {{ error?: { message?: string } } | null} */ (answer);
        state.textContent = `Not sent: ${failure?.error?.message || response.status}`;
      } catch {
        state.textContent = 'Not sent: the API could not be reached. Try again.';
      }
      for (const button of [approve, reject]) button.removeAttribute('disabled');
    }
    approve.addEventListener('click', () => {
      void decide('approve', { argsDigest: data.argsDigest });
    });
    reject.addEventListener('click', () => {
      const text = comment.value.trim();
      void decide('reject', text ? { comment: text } : {});
    });
    return controls;
  }

  /** @param {EventData} data */
  function showApprovalResolved(data) {
    const item = approvalItems.get(data.approvalId);
    if (!item) return;
    item.dataset.approvalStatus = String(data.decision);
    item.querySelector('.approval-controls')?.remove();
    const state = item.querySelector('.approval-state');
    const by = data.by === 'owner' ? ' by the owner' : '';
    const why = data.comment ? `: ${data.comment}` : '';
    if (state)
      state.textContent = `${DECISIONS[String(data.decision)] || data.decision}${by}${why}`;
  }

  /** @param {EventData} data */
  function showFinal(data) {
    const status = String(data.finalStatus);
    ui.final.dataset.finalStatus = status;
    ui.final.textContent = `${FINAL[status] || status}: run ${String(data.runId).slice(0, 8)} is over.`;
  }

  /**
   * @param {string} type
   * @param {EventData} data
   */
  function statusAfter(type, data) {
    if (type === 'done') return String(data.finalStatus);
    return type === 'approval_requested' ? 'awaiting_approval' : 'running';
  }

  /** @param {string} status */
  function setStatus(status) {
    ui.status.dataset.status = status;
    ui.status.textContent = status.replace(/_/g, ' ');
    root.dataset.status = status;
  }

  /** @param {string} text */
  function setConnection(text) {
    if (ui.connection.textContent !== text) ui.connection.textContent = text;
  }

  /** @param {ShownEvent} event */
  function logEvent(event) {
    // Follow the newest event unless the reader scrolled up to read older ones.
    const log = /** @type {HTMLElement} */ (ui.events.parentElement);
    const following = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    addItem(
      ui.events,
      el(
        'li',
        { 'data-event-id': event.id, 'data-event-type': event.type },
        el('span', { class: 'event-id' }, `#${event.id}`),
        ' ',
        el('span', { class: 'event-type' }, LABELS[event.type] || event.type),
        ' ',
        el('span', { class: 'event-text' }, summary(event.type, event.data)),
      ),
    );
    if (following) log.scrollTop = log.scrollHeight;
    const count = shown.length;
    ui.eventCount.textContent = `${count} ${count === 1 ? 'event' : 'events'}, the latest #${event.id}.`;
  }

  /**
   * The stream ends after this `done` (the server's rule, api/sse/stream-end.ts).
   * @param {ShownEvent} event
   */
  function endsStream(event) {
    return (
      event.type === 'done' && (event.data.runId === currentRunId || event.id > renderedLastId)
    );
  }

  /** @param {ShownEvent} event */
  function show(event) {
    shown.push(event);
    lastId = event.id;
    logEvent(event);
    const { type, data } = event;
    if (type === 'plan') showPlan(data);
    else if (type === 'tool_call') showToolCall(data);
    else if (type === 'tool_result') showToolResult(data);
    else if (type === 'commit') showCommit(data);
    else if (type === 'done') showFinal(data);
    else if (type === 'approval_requested') showApprovalRequest(data);
    else if (type === 'approval_resolved') showApprovalResolved(data);
    else showMessage(type, data);
    // Events the page was rendered with are already in its status.
    if (event.id > renderedLastId) setStatus(statusAfter(type, data));
    if (endsStream(event)) finish('Finished: the run is over.');
  }

  // ---- keeping what is shown across a reload ----

  function forget() {
    try {
      sessionStorage.removeItem(storageKey);
    } catch {
      // Storage unavailable: nothing was kept.
    }
  }

  function save() {
    if (saveTimer !== null) clearTimeout(saveTimer);
    saveTimer = null;
    if (!persist) return;
    try {
      const state = { version: STORAGE_VERSION, lastEventId: lastId, events: shown };
      sessionStorage.setItem(storageKey, JSON.stringify(state));
    } catch {
      // Too much to keep (or no storage): keep nothing, so a reload replays from the start.
      persist = false;
      forget();
    }
  }

  function scheduleSave() {
    if (persist && saveTimer === null) saveTimer = setTimeout(save, 250);
  }

  /**
   * What this tab kept for the project, if anything; `restore` checks it before using it
   * (another version of the page may have kept it).
   * @returns {Saved | null}
   */
  function readSaved() {
    try {
      /** @type {unknown} */
      const saved = JSON.parse(sessionStorage.getItem(storageKey) || 'null');
      return /** @type {Saved | null} */ (saved);
    } catch {
      return null;
    }
  }

  function restore() {
    const saved = readSaved();
    const usable =
      saved &&
      saved.version === STORAGE_VERSION &&
      Number.isSafeInteger(saved.lastEventId) &&
      Array.isArray(saved.events) &&
      // Newer than the log itself: not this log's events (a restored database). Start over.
      saved.lastEventId <= renderedLastId;
    if (!usable) {
      if (saved) forget();
      return;
    }
    for (const event of saved.events) show(event);
  }

  // ---- the stream ----

  /** @param {string} text */
  function finish(text) {
    finished = true;
    if (source) source.close();
    setConnection(text);
    save();
  }

  /** @param {MessageEvent<string>} message */
  function onEvent(message) {
    if (finished) return;
    const id = Number(message.lastEventId);
    // Already shown (or not an event of the log): never twice.
    if (!Number.isSafeInteger(id) || id <= lastId) return;
    /** @type {unknown} */
    let data;
    try {
      data = JSON.parse(message.data);
    } catch {
      data = {};
    }
    // The stream's data (shared/projects/events.ts), compacted.
    show({ id, type: message.type, data: /** @type {EventData} */ (compact(data)) });
    scheduleSave();
  }

  function connect() {
    const url = lastId > 0 ? `${streamUrl}?lastEventId=${lastId}` : streamUrl;
    setConnection(retries === 0 ? 'Connecting…' : 'Reconnecting…');
    const stream = new EventSource(url);
    source = stream;
    stream.addEventListener('open', () => {
      retries = 0;
      setConnection('Live');
    });
    for (const type of EVENT_TYPES) stream.addEventListener(type, onEvent);
    stream.addEventListener('error', () => {
      if (finished || source !== stream) return;
      // EventSource reconnects by itself, sending Last-Event-ID.
      if (stream.readyState === EventSource.CONNECTING) {
        setConnection('Reconnecting…');
        return;
      }
      // Refused (an error status, or 204: nothing more will come).
      stream.close();
      if (root.dataset.status === 'archived') {
        finish('Finished: the project is archived.');
        return;
      }
      if (retries >= MAX_RETRIES) {
        setConnection('Disconnected. Reload the page to try again.');
        return;
      }
      const delay = Math.min(30_000, 1000 * 2 ** retries);
      retries += 1;
      setConnection(`Disconnected; trying again in ${Math.round(delay / 1000)} s.`);
      setTimeout(() => {
        if (!finished) connect();
      }, delay);
    });
  }

  addEventListener('pagehide', save);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') save();
  });

  restore();
  if (!finished) {
    if (typeof EventSource === 'undefined') {
      setConnection('This browser cannot follow the stream (no EventSource).');
    } else {
      connect();
    }
  }
})();
