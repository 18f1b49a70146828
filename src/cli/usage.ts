/**
 * Argument parsing for the CLI. A mistake in how a command was called is a UsageError: printed with
 * the help text, exit code 2.
 */
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export function parse<T extends ParseArgsOptionsConfig>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
