#!/usr/bin/env node
/// <reference types="node" />
/**
 * `toolrun-types <service URL> [--out FILE]`: reads the service's `/openapi.json` (no key needed)
 * and writes the TypeScript types of every tool it offers (toolTypesModule) to FILE, or prints
 * them. Run again whenever the deployment's tools change.
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { toolTypesModule } from "./tool-types.js";

const USAGE = "usage: toolrun-types <service URL, e.g. https://toolrun.example.com> [--out FILE]";

async function main(): Promise<number> {
  const options = { out: { type: "string", short: "o" }, help: { type: "boolean", short: "h" } } as const;
  let parsed: ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof options }>>;
  try {
    parsed = parseArgs({ allowPositionals: true, options });
  } catch (error) {
    console.error(`toolrun-types: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  const [base = process.env.TOOLRUN_URL, ...more] = parsed.positionals;
  if (base === undefined || more.length > 0) {
    console.error(`toolrun-types: give the service's URL (or set TOOLRUN_URL)\n${USAGE}`);
    return 2;
  }
  const source = `${base.replace(/\/+$/, "")}/openapi.json`;
  let document: unknown;
  try {
    const response = await fetch(source, { headers: { accept: "application/json" } });
    if (!response.ok) throw new Error(`it answered ${response.status}`);
    document = await response.json();
  } catch (error) {
    console.error(`toolrun-types: could not read ${source}: ${(error as Error).message}`);
    return 1;
  }
  let module: string;
  try {
    module = toolTypesModule(document, source);
  } catch (error) {
    console.error(`toolrun-types: ${(error as Error).message}`);
    return 1;
  }
  if (parsed.values.out === undefined) process.stdout.write(module);
  else {
    await writeFile(parsed.values.out, module);
    console.error(`toolrun-types: wrote the types of the tools at ${source} to ${parsed.values.out}`);
  }
  return 0;
}

process.exitCode = await main();
