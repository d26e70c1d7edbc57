import {
  destination as pinoDestination,
  pino,
  stdSerializers,
  type DestinationStream,
  type Logger,
} from 'pino';
import { redactError } from './db/error-redaction';

/**
 * JSON logs (pino). Credentials are redacted wherever they could appear in a logged request,
 * and a logged error (`{ err }`, or an error as the first argument) never carries the SQL or
 * values of a failed statement (`db/error-redaction.ts`).
 *
 * Without a `destination`, lines go to stdout through `PerTurnStdout`.
 */
export function createLogger(level: string, name: string, destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'req.headers["x-service-bot-token"]',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
    serializers: { err: (error: Error) => stdSerializers.err(redactError<Error>(error)) },
  };
  return pino(options, destination ?? (stdout ??= new PerTurnStdout()));
}

/** One per process, shared by its loggers: one buffer, one write per turn, one exit listener. */
let stdout: PerTurnStdout | undefined;

/**
 * Lines logged during one turn of the event loop leave together in one synchronous write at
 * its end (performance issue, item 4): under load a turn answers many requests, and one
 * `write(2)` per line cost more than the rest of their logging; pino's own asynchronous
 * buffer recounts the bytes of its whole buffer on every line. Nothing waits on a timer, so
 * a line is out as soon as the turn that wrote it ends, and whatever a dying process still
 * holds is written on `exit` (also after `process.exit` or an uncaught exception).
 */
class PerTurnStdout implements DestinationStream {
  private lines: string[] = [];
  private scheduled = false;
  /** pino's synchronous stdout: retries a full pipe (EAGAIN) instead of dropping lines. */
  private readonly out = pinoDestination({ dest: 1, sync: true });

  constructor() {
    process.on('exit', () => this.flushSync());
  }

  write(line: string): void {
    this.lines.push(line);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flushSync());
  }

  flushSync(): void {
    this.scheduled = false;
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.out.write(text);
  }

  /** Called by `logger.flush()`. */
  flush(done?: (err?: Error) => void): void {
    this.flushSync();
    done?.();
  }
}

/** Writes out whatever the logger still holds (a graceful stop); resolves once it has. */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}

export type { Logger };
