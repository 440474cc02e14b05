import { write as fsWrite, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { prettyFactory } from 'pino-pretty';

export type { Logger };

/** What every log line is written with: credentials and claim codes never reach one. */
export function logOptions(level: string, name: string): LoggerOptions {
  return {
    name,
    level,
    // Fixed paths only: a wildcard makes pino walk every object of every line (about 12 µs of
    // each map read). `err.body` is the raw text body-parser keeps on a body it refused;
    // `err.command.args` the arguments ioredis keeps on a failed command (a claim code, a
    // credential's hash).
    redact: {
      paths: ['req.headers.authorization', 'err.body', 'err.command.args', 'credential', 'code'],
      censor: '[redacted]',
    },
  };
}

/** Lines are written once this many characters are queued (one syscall per 4 KiB, not per line). */
const WRITE_AT = 4096;
/** When the reader does not keep up, lines past this many queued characters are dropped. */
const QUEUE_MAX = 8 * 1024 * 1024;
/** A full pipe (EAGAIN) is tried again after this pause. */
const RETRY_MS = 100;

export interface LineDestination extends DestinationStream {
  /** Starts writing whatever is queued (at once, or as soon as the write in flight is done). */
  flush(): void;
  /**
   * Writes everything queued; resolves once it is written or dropped (the fd failed), or after
   * `timeoutMs` whatever the state (a reader that does not read holds nothing up).
   */
  drain(timeoutMs: number): Promise<void>;
  /** At exit: one synchronous attempt at writing what is queued; any error drops it. */
  flushSync(): void;
}

/**
 * Buffered log lines to a file descriptor that never holds a process up. Written asynchronously,
 * one write in flight at a time; a full pipe is retried; any other failure (EPIPE: the reader is
 * gone) drops the queued lines and every later one. At exit, what is queued gets one synchronous
 * write, unless a write is still in flight (the reader is not keeping up) or the fd failed.
 * pino.destination (sonic-boom) is not used because its exit-time flushSync retries every error
 * but EAGAIN, 10 times a second, forever: on a dead pipe an exiting process never ends.
 * Losing logs to a dead reader is acceptable; a process that never exits is not.
 */
export function lineDestination(fd: number): LineDestination {
  let queued = '';
  let inFlight = false;
  let failed = false;
  /** flush() was asked while a write was in flight: what is queued goes out right after it. */
  let flushAsked = false;
  /** Called once nothing is queued or in flight (or the fd failed); see drain(). */
  const drained = new Set<() => void>();

  const writeOut = (bytes: Buffer): void => {
    inFlight = true;
    fsWrite(fd, bytes, 0, bytes.length, null, (err, written) => {
      if (err && err.code === 'EAGAIN') {
        setTimeout(() => writeOut(bytes), RETRY_MS).unref();
        return;
      }
      if (err) {
        failed = true;
        queued = '';
      } else if (written < bytes.length) {
        writeOut(bytes.subarray(written));
        return;
      }
      inFlight = false;
      if (queued && (drained.size > 0 || flushAsked || queued.length >= WRITE_AT)) writeQueued();
      else if (!queued) for (const done of drained) done();
    });
  };
  const writeQueued = () => {
    const bytes = Buffer.from(queued);
    queued = '';
    flushAsked = false;
    writeOut(bytes);
  };

  return {
    write(line: string) {
      if (failed || queued.length > QUEUE_MAX) return;
      queued += line;
      if (!inFlight && queued.length >= WRITE_AT) writeQueued();
    },
    flush() {
      if (failed || !queued) return;
      if (inFlight) flushAsked = true;
      else writeQueued();
    },
    drain(timeoutMs) {
      this.flush();
      if (!inFlight) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          drained.delete(done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        drained.add(done);
      });
    },
    flushSync() {
      if (failed || inFlight || !queued) return;
      const bytes = Buffer.from(queued);
      queued = '';
      try {
        for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
      } catch {
        failed = true;
      }
    },
  };
}

let stdout: LineDestination | undefined;

/** The one stdout destination of this process, shared by its loggers. */
function stdoutLines(): LineDestination {
  if (!stdout) {
    const lines = lineDestination(1);
    // A quiet process still shows its lines within a second; an exiting one writes the rest.
    setInterval(() => lines.flush(), 1_000).unref();
    process.on('exit', () => lines.flushSync());
    stdout = lines;
  }
  return stdout;
}

/**
 * Writes the log lines this process queued for stdout, waiting at most `timeoutMs` (before a
 * planned exit, so its last lines are not left to the one synchronous attempt at exit).
 */
export async function drainLogs(timeoutMs: number): Promise<void> {
  await stdout?.drain(timeoutMs);
}

/** pino's numeric level of `warn`: lines at it and above are written at once. */
const WARN = 40;

/**
 * A person reading: stdout is a terminal. Each process asks of its own stdout: under `npm start`
 * the children share the supervisor's (stdio inherit), so they all answer alike.
 */
function forPeople(): boolean {
  return isatty(1);
}

/**
 * One readable line per event for a person at a terminal: time, level, process, message, then
 * the line's own fields (pid and hostname left out: one machine, and the process is named). An
 * error shows as its type and message, not its stack (piped, the JSON line has it all). Colours
 * unless NO_COLOR.
 */
function prettyLines(): (line: string) => string {
  const pretty = prettyFactory({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    errorLikeObjectKeys: [],
    customPrettifiers: {
      err: (err) => {
        const { type, message } = (err ?? {}) as { type?: unknown; message?: unknown };
        return typeof message === 'string' ? `${String(type ?? 'Error')}: ${message}` : String(err);
      },
    },
  });
  return (line) => pretty(line);
}

/**
 * Log lines on stdout: JSON lines (one per event, for machines) unless stdout is a terminal, then
 * readable lines. Lines are buffered (lineDestination), except that warn and
 * error lines are written at once, not after the next periodic write.
 */
export function createLogger(level: string, name: string): Logger {
  const lines = stdoutLines();
  const format = forPeople() ? prettyLines() : (line: string) => line;
  // pino sets `lastLevel` before each write on a stream that asks for it (its multistream does).
  const destination = {
    [Symbol.for('pino.metadata')]: true,
    lastLevel: 0,
    write(line: string) {
      lines.write(format(line));
      if (this.lastLevel >= WARN) lines.flush();
    },
  };
  return pino(logOptions(level, name), destination);
}
