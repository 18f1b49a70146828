/**
 * The logger each request gets (`request.log`), made only when something is written through it.
 * Fastify's default makes a pino child logger per request to bind its id; with one request line
 * written through the root logger (app.ts) most requests never write through theirs, so the
 * child is made on the first write at an enabled level, then used as before: lines written through
 * `request.log` carry `reqId` exactly as the default child's. Without a real logger (tests), the
 * silent parent is its own child, as in Fastify.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString, LogFn } from "pino";

interface LevelAware extends FastifyBaseLogger {
  isLevelEnabled(level: Level): boolean;
}

const levelAware = (logger: FastifyBaseLogger): logger is LevelAware =>
  typeof (logger as Partial<LevelAware>).isLevelEnabled === "function";

class RequestLogger implements FastifyBaseLogger {
  readonly #parent: LevelAware;
  readonly #bindings: Bindings;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: LevelAware, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings);
    return this.#child;
  }

  #write(level: Level, args: unknown[]): void {
    if (this.#child === undefined && !this.#parent.isLevelEnabled(level)) return;
    (this.#real()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): LevelWithSilentOrString {
    return (this.#child ?? this.#parent).level;
  }
  set level(level: LevelWithSilentOrString) {
    this.#real().level = level;
  }

  fatal: LogFn = (...args: unknown[]) => this.#write("fatal", args);
  error: LogFn = (...args: unknown[]) => this.#write("error", args);
  warn: LogFn = (...args: unknown[]) => this.#write("warn", args);
  info: LogFn = (...args: unknown[]) => this.#write("info", args);
  debug: LogFn = (...args: unknown[]) => this.#write("debug", args);
  trace: LogFn = (...args: unknown[]) => this.#write("trace", args);
  silent: LogFn = () => {};

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

export const lazyRequestLogger: NonNullable<FastifyServerOptions["childLoggerFactory"]> = (
  logger,
  bindings,
  options,
) => {
  if (!levelAware(logger)) return logger;
  // Route-level log options (none today) change the child itself: make it at once.
  if (options.level !== undefined || options.serializers !== undefined)
    return logger.child(bindings, options);
  return new RequestLogger(logger, bindings);
};
