import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Credentials and claim codes never reach a log line. */
export function createLogger(level: string, name: string): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ['req.headers.authorization', '*.credential', '*.code', 'credential', 'code'],
      censor: '[redacted]',
    },
  });
}
