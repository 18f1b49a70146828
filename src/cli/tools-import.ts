/**
 * `toolrun tools import FILE [--base-url URL] [--operation ID ...]`: prints, on stdout, the
 * `httpTools` declarations for the operations of an OpenAPI 3.0 or 3.1 document (JSON or YAML),
 * ready to paste into the configuration file; what was left out goes to stderr as warnings. The
 * document is read, validated and dereferenced by @readme/openapi-parser; the conversion is the
 * core's. Needs no configuration or database.
 */
import { dereference, validate } from "@readme/openapi-parser";
import type { Command } from "commander";
import { declarationsFromOpenApi, ImportError } from "../core/tools/openapi-import.ts";
import { type CliContext, CliError } from "./context.ts";

export function registerToolsImportCommand(tools: Command, cli: CliContext): void {
  tools
    .command("import")
    .description("print httpTools declarations, one per operation of an OpenAPI 3.0 or 3.1 document")
    .argument("<file>", "the OpenAPI document, JSON or YAML")
    .option("--base-url <url>", "the upstream's base URL (default: the document's first server)")
    .option("--operation <id...>", "import only these operationIds (repeatable)")
    .action(async (file: string, options: { baseUrl?: string; operation?: string[] }) => {
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
      cli.out(JSON.stringify(result.declarations, null, 2));
      if (result.declarations.length === 0) throw new CliError(`${file}: no operation could be imported.`);
      if (result.skipped.length > 0)
        throw new CliError(
          `${file}: could not import ${result.skipped.join(", ")} (see the warnings above).`,
        );
    });
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
