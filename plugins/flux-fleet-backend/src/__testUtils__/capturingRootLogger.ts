import {
  coreServices,
  createServiceFactory,
  type RootLoggerService,
  type ServiceFactory,
} from '@backstage/backend-plugin-api';

/** One line a logger was asked to write, with its fields serialised as the JSON a log sink would receive. */
export interface CapturedLogLine {
  level: 'error' | 'warn' | 'info' | 'debug';
  message: string;
  /** The line's fields (the logger's own and the call's), JSON; errors with their message, stack and fields. */
  fields: string;
  /** The same fields, parsed. */
  parsed: Record<string, any>;
}

/** JSON of log fields, with errors written out in full (message, stack, cause and every own field). */
function serialise(fields: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(fields, (_key, value) => {
    if (value instanceof Error) {
      const own: Record<string, unknown> = {};
      for (const k of Object.getOwnPropertyNames(value)) own[k] = (value as any)[k];
      return { name: value.name, message: value.message, stack: value.stack, cause: value.cause, ...own };
    }
    if (value && typeof value === 'object') {
      if (seen.has(value)) return '[circular]';
      seen.add(value);
    }
    return value;
  });
}

class CapturingLogger implements RootLoggerService {
  constructor(
    private readonly lines: CapturedLogLine[],
    private readonly fields: Record<string, unknown>,
  ) {}

  error(message: string, meta?: Error | object) {
    this.write('error', message, meta);
  }
  warn(message: string, meta?: Error | object) {
    this.write('warn', message, meta);
  }
  info(message: string, meta?: Error | object) {
    this.write('info', message, meta);
  }
  debug(message: string, meta?: Error | object) {
    this.write('debug', message, meta);
  }
  child(meta: Record<string, unknown>): CapturingLogger {
    return new CapturingLogger(this.lines, { ...this.fields, ...meta });
  }

  private write(level: CapturedLogLine['level'], message: string, meta?: Error | object) {
    const all = meta instanceof Error ? { ...this.fields, error: meta } : { ...this.fields, ...meta };
    const fields = serialise(all);
    this.lines.push({ level, message: String(message), fields, parsed: JSON.parse(fields) });
  }
}

/**
 * A root logger that keeps every line at every level, child loggers and the auditor's records included, so a test
 * can read what the backend logged (and grep it for what must never be logged).
 */
export function capturingRootLogger(): {
  lines: CapturedLogLine[];
  factory: ServiceFactory<RootLoggerService, 'root', 'singleton'>;
} {
  const lines: CapturedLogLine[] = [];
  const factory = createServiceFactory({
    service: coreServices.rootLogger,
    deps: {},
    factory: () => new CapturingLogger(lines, {}),
  });
  return { lines, factory };
}
