import type { ProjectStreamEvent } from '../../shared/projects/events';

/**
 * The SSE wire format (WHATWG HTML "Server-sent events"). JSON never contains a raw line
 * break (it escapes them), so a whole event's data fits on one `data:` line.
 */

/** An event ready to write: the frame is built once and shared by every connection. */
export interface FramedEvent extends ProjectStreamEvent {
  frame: Buffer;
}

export function eventText(event: ProjectStreamEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

export function frameEvent(event: ProjectStreamEvent): FramedEvent {
  return { ...event, frame: Buffer.from(eventText(event)) };
}

/** The reconnection delay hint, sent once on connect. */
export function retryFrame(retryMs: number): string {
  return `retry: ${retryMs}\n\n`;
}

/** A comment line: ignored by clients, keeps proxies and load balancers from timing out. */
export const HEARTBEAT_FRAME = Buffer.from(': keep-alive\n\n');

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // nginx and similar proxies would otherwise buffer the stream and delay every event.
  'x-accel-buffering': 'no',
} as const;
