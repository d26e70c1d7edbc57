import { destination as pinoDestination, pino, type DestinationStream, type Logger } from 'pino';

/**
 * JSON logs (pino). Credentials are redacted wherever they could appear in a logged request.
 *
 * Without a `destination`, lines go to stdout through a buffer written asynchronously once it
 * holds 4 KiB or every half second, whichever comes first: one `write(2)` per line cost more
 * than the rest of a request's logging (performance issue, item 4). A line therefore reaches
 * stdout at most `FLUSH_INTERVAL_MS` late. Whatever is buffered is written synchronously when
 * the process exits (normal exit, `process.exit`, an uncaught exception: pino registers that
 * for its own destinations); `flushLogger` is for a graceful stop.
 */
const BUFFER_BYTES = 4096;
const FLUSH_INTERVAL_MS = 500;

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
  };
  return pino(
    options,
    destination ??
      pinoDestination({
        dest: 1,
        sync: false,
        minLength: BUFFER_BYTES,
        periodicFlush: FLUSH_INTERVAL_MS,
      }),
  );
}

/** Writes out whatever the logger still buffers; resolves when it has (or could not). */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}

export type { Logger };
