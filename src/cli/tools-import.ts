/**
 * `toolrun tools import FILE [--base-url URL] [--operation ID ...]`: prints, on stdout, the
 * `httpTools` declarations for the operations of an OpenAPI 3.0 or 3.1 document (JSON or YAML),
 * ready to paste into the configuration file, or with `--write FILE` adds them to that file's
 * `httpTools`; what was left out goes to stderr as warnings. The document is read, validated and
 * dereferenced by @readme/openapi-parser; the conversion is the core's. Needs no configuration or
 * database.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { dereference, validate } from "@readme/openapi-parser";
import type { Command } from "commander";
import type { HttpToolDeclaration } from "../core/tools/http-tool.ts";
import { declarationsFromOpenApi, ImportError } from "../core/tools/openapi-import.ts";
import { type CliContext, CliError } from "./context.ts";

export function registerToolsImportCommand(tools: Command, cli: CliContext): void {
  tools
    .command("import")
    .description("print httpTools declarations, one per operation of an OpenAPI 3.0 or 3.1 document")
    .argument("<file>", "the OpenAPI document, JSON or YAML")
    .option("--base-url <url>", "the upstream's base URL (default: the document's first server)")
    .option("--operation <id...>", "import only these operationIds (repeatable)")
    .option(
      "--write <config>",
      "add the declarations to this configuration file's httpTools (created if missing) instead of printing them",
    )
    .action(async (file: string, options: { baseUrl?: string; operation?: string[]; write?: string }) => {
      const document = await readDocument(file);
      let result: ReturnType<typeof declarationsFromOpenApi>;
      try {
        result = declarationsFromOpenApi(document, {
          baseUrl: options.baseUrl,
          operations: options.operation,
        });
      } catch (error) {
        if (error instanceof ImportError)
          throw new CliError(`${file}: ${error.message}`, error.usage ? 2 : 1);
        throw error;
      }
      for (const warning of result.warnings) process.stderr.write(`toolrun: warning: ${warning}\n`);
      if (result.declarations.length === 0) throw new CliError(`${file}: no operation could be imported.`);
      if (options.write === undefined) cli.out(JSON.stringify(result.declarations, null, 2));
      else {
        const added = writeInto(options.write, result.declarations);
        cli.out(
          added.length === 0
            ? `${options.write} already has these httpTools entries; nothing changed.`
            : `Added ${added.length} httpTools entr${added.length === 1 ? "y" : "ies"} to ${options.write}: ${added.join(", ")}.`,
        );
      }
      if (result.skipped.length > 0)
        throw new CliError(
          `${file}: could not import ${result.skipped.join(", ")} (see the warnings above).`,
        );
    });
}

/**
 * Adds the declarations to the configuration file's `httpTools`, merged by slug: an entry the file
 * already has as it is stays, and one whose slug the file gives another entry is a clash that
 * stops the command before anything is written. The file is replaced whole, never left half
 * written. The slugs added, in order.
 */
function writeInto(config: string, declarations: readonly HttpToolDeclaration[]): string[] {
  let file: Record<string, unknown> = {};
  if (existsSync(config)) {
    try {
      file = JSON.parse(readFileSync(config, "utf8")) as Record<string, unknown>;
    } catch (error) {
      throw new CliError(`--write ${config}: cannot read it as JSON: ${firstLine(error)}`);
    }
    if (typeof file !== "object" || file === null || Array.isArray(file))
      throw new CliError(`--write ${config}: the configuration file must hold a JSON object`);
  }
  const existing = file.httpTools ?? [];
  if (!Array.isArray(existing)) throw new CliError(`--write ${config}: its httpTools must be an array`);
  const bySlug = new Map(
    existing.map((entry: unknown) => [(entry as { slug?: unknown } | null)?.slug, entry] as const),
  );
  const clashes = declarations.filter(
    (d) => bySlug.has(d.slug) && !isDeepStrictEqual(bySlug.get(d.slug), JSON.parse(JSON.stringify(d))),
  );
  if (clashes.length > 0)
    throw new CliError(
      `--write ${config}: its httpTools already has another entry for ${clashes.map((d) => d.slug).join(", ")}; nothing was written (remove or rename those entries, or import with --operation)`,
    );
  const added = declarations.filter((d) => !bySlug.has(d.slug));
  if (added.length === 0) return [];
  const written = `${JSON.stringify({ ...file, httpTools: [...existing, ...added] }, null, 2)}\n`;
  const temporary = `${config}.${process.pid}.tmp`;
  // The file may hold secrets: a new one is the owner's alone, an old one keeps its mode.
  writeFileSync(temporary, written, { mode: existsSync(config) ? statSync(config).mode & 0o777 : 0o600 });
  renameSync(temporary, config);
  return added.map((d) => d.slug);
}

async function readDocument(file: string): Promise<unknown> {
  const checked = await validate(file).catch((error: unknown) => {
    throw new CliError(`${file}: cannot read it as an OpenAPI document: ${firstLine(error)}`);
  });
  if (!checked.valid) {
    const problems = checked.errors.map((e) => firstLine(e.message)).slice(0, 3);
    throw new CliError(`${file} is not a valid OpenAPI document: ${problems.join("; ")}`);
  }
  // A recursive schema keeps its $ref, so the operations that use it can be named and left out.
  return dereference(file, { dereference: { circular: "ignore" } });
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.trim().split("\n", 1)[0] ?? "";
}
