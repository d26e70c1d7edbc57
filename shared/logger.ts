import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * JSON logs (pino). Credentials are redacted wherever they could appear in a logged request.
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
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
