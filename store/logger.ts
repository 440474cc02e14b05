import { destination as pinoDestination, pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Credentials and claim codes never reach a log line. */
export function createLogger(level: string, name: string): Logger {
  // Buffered writes (flushed at 4 KiB and on exit) keep one syscall off every request.
  const destination = pinoDestination({ dest: 1, sync: false, minLength: 4096 });
  // A quiet process still shows its lines within a second.
  setInterval(() => destination.flush(), 1_000).unref();
  return pino(
    {
      name,
      level,
      redact: {
        paths: ['req.headers.authorization', '*.credential', '*.code', 'credential', 'code'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
