import type { FramedEvent } from './frames';

/**
 * The events one project's feed fanned out since its last flush of batched streams (tiers
 * without `fasterSse`), and their frames joined once. Batched streams that waited for the same
 * run of events are written the same bytes, a slice of one shared buffer: a flush costs one
 * write per stream and one copy per process, however many streams and events it carries.
 */
export class FrameBatch {
  private events: FramedEvent[] = [];
  private joined: Buffer | null = null;
  /** Where each event's frame starts in `joined`, and its total length last. */
  private offsets: number[] = [];

  get size(): number {
    return this.events.length;
  }

  /** Before the event is handed to any connection, so every run they queue is a slice of this. */
  add(event: FramedEvent): void {
    this.events.push(event);
    this.joined = null;
  }

  clear(): void {
    this.events = [];
    this.joined = null;
    this.offsets = [];
  }

  /** The frames of `run` (events added here, in order, without a gap) as one buffer. */
  framesOf(run: readonly FramedEvent[]): Buffer {
    const [first] = run;
    const last = run.at(-1);
    if (!first || !last) return Buffer.alloc(0);
    if (run.length === 1) return first.frame;
    const from = this.indexOf(first);
    const to = from + run.length - 1;
    // Both in seq order, the run taken from these events: same ends and length, same events.
    if (from === -1 || this.events[to] !== last) return joinFrames(run);
    const joined = this.join();
    return joined.subarray(this.offsets[from], this.offsets[to + 1]);
  }

  private indexOf(event: FramedEvent): number {
    // The seqs of one feed are usually consecutive: a subtraction finds it.
    const guess = event.seq - (this.events[0]?.seq ?? 0);
    return this.events[guess] === event ? guess : this.events.indexOf(event);
  }

  private join(): Buffer {
    if (this.joined) return this.joined;
    let offset = 0;
    this.offsets = [];
    for (const event of this.events) {
      this.offsets.push(offset);
      offset += event.frame.length;
    }
    this.offsets.push(offset);
    this.joined = Buffer.concat(
      this.events.map((event) => event.frame),
      offset,
    );
    return this.joined;
  }
}

export function joinFrames(run: readonly FramedEvent[]): Buffer {
  return run.length === 1 ? run[0]!.frame : Buffer.concat(run.map((event) => event.frame));
}
