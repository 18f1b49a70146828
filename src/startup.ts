/**
 * Start-up failures in the operator's words: each names the variable to fix, its value (never a
 * password) and what is wrong with it, on one line, instead of a driver's or the socket's message.
 */
import { resolve } from "node:path";
import type { Config } from "./config.ts";

export class StartupError extends Error {
  override readonly name = "StartupError";
}

/** The database setting as it may be shown: a SQLite path made absolute, a URL without its password. */
export function describeDatabase(config: Config): string {
  const { database } = config;
  if (database.kind === "postgres") return withoutPassword(database.url);
  return database.path === ":memory:" || database.path.startsWith("file:")
    ? database.path
    : resolve(database.path);
}

export function withoutPassword(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password !== "") url.password = "***";
    return url.href;
  } catch {
    return "(not a URL)";
  }
}

export function databaseError(config: Config, what: string, error: unknown): StartupError {
  return new StartupError(`TOOLRUN_DATABASE=${describeDatabase(config)}: ${what} (${reason(error)})`, {
    cause: error,
  });
}

/** What `listen` failed with, blamed on HOST or PORT. */
export function listenError(config: Config, error: unknown): unknown {
  const code = errorCode(error);
  const where = `${config.host}:${config.port}`;
  switch (code) {
    case "EADDRINUSE":
      return new StartupError(
        `PORT=${config.port}: ${where} is already in use by another process (EADDRINUSE); stop it or choose another PORT`,
        { cause: error },
      );
    case "EACCES":
      return new StartupError(
        `PORT=${config.port}: not allowed to listen on ${where} (EACCES); ports below 1024 need privileges`,
        { cause: error },
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return new StartupError(
        `HOST=${config.host}: no such host (${code}); use an IP address such as 0.0.0.0`,
        {
          cause: error,
        },
      );
    case "EADDRNOTAVAIL":
      return new StartupError(`HOST=${config.host}: not an address of this machine (EADDRNOTAVAIL)`, {
        cause: error,
      });
    default:
      return error;
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string")
    return error.code;
  return undefined;
}

/** The innermost useful message: a driver's message, with the socket code when there is one. */
export function reason(error: unknown): string {
  let current: unknown = error;
  // BackendUnavailableError wraps the driver's error; AggregateError holds one per address tried.
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof AggregateError && current.errors[0] instanceof Error) current = current.errors[0];
  const code = errorCode(current);
  const message = current instanceof Error ? current.message : String(current);
  return code !== undefined && !message.includes(code) ? `${code}: ${message}` : message;
}
