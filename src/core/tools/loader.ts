/**
 * Loads every tool the service offers, in one order: the built-in ones, the modules `TOOLRUN_TOOLS`
 * lists, then the configuration file's `httpTools`. Each is checked against the contract; a slug
 * is unique across all of them. Anything wrong stops start-up with a ToolLoadError, one line per
 * problem naming the module (or the configuration entry) and what is wrong with it, every problem
 * at once. Each loaded tool remembers where it came from, for `toolrun tools list`.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join, delimiter as platformDelimiter, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Upstream } from "../../ports/upstream.ts";
import { SetupProblemsError } from "../kernel/settings.ts";
import { type CheckedTool, checkDefinition, type DefinitionCheck, firstLine } from "./check-definition.ts";
import { resolveSecrets } from "./env-references.ts";
import { bindHttpTool, checkHttpTool, resolveHeaders } from "./http-tool.ts";

export type ToolOrigin =
  | { readonly kind: "built-in" }
  /** `package` is the name `TOOLRUN_TOOLS` gave, when it gave one rather than a path. */
  | { readonly kind: "module"; readonly path: string; readonly package?: string }
  | { readonly kind: "http"; readonly configPath: string; readonly index: number };

export interface LoadedTool extends CheckedTool {
  readonly origin: ToolOrigin;
  /** `tools.<slug>.secrets` of the configuration file, read from the environment. */
  readonly secrets: Readonly<Record<string, string>>;
}

export interface LoadToolsOptions {
  /** The tools compiled in, checked like any module's definition. */
  readonly builtIns: readonly unknown[];
  /** `TOOLRUN_TOOLS`, unset or empty for none. */
  readonly modules?: string | undefined;
  /** The configuration file's `httpTools` (unchecked) and the file's path, for the messages. */
  readonly httpTools?: { readonly declarations: unknown; readonly configPath: string } | undefined;
  /** The configuration file's `tools.<slug>.secrets`, by slug, values unexpanded. */
  readonly secrets?: Readonly<Record<string, unknown>> | undefined;
  /** The slugs the configuration file's `tools` sets: each must name a tool. */
  readonly configured?: readonly string[] | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths and package names in `TOOLRUN_TOOLS` are resolved from. */
  readonly cwd: string;
  /** Where HTTP tools send their requests; needed only with `httpTools` and `readSecrets`. */
  readonly upstream?: Upstream | undefined;
  /**
   * False for a process that lists tools and never runs one (the CLI): no secret is read from
   * `env` (header references and `tools.<slug>.secrets` are checked for their syntax only), and an
   * HTTP tool's run fails. Default true.
   */
  readonly readSecrets?: boolean | undefined;
  /**
   * `TOOLRUN_CALL_ABANDON_S` in milliseconds: an `external` tool's timeout must be below it, or the
   * sweep would release the reservation of a call still running. Unchecked when not given.
   */
  readonly abandonAfterMs?: number | undefined;
  /**
   * `TOOLRUN_SYNC_TIMEOUT_S` in milliseconds: how long a synchronous call of a tool that may run
   * as a job runs at most, which is what must stay below `abandonAfterMs` for such a tool.
   */
  readonly syncTimeoutMs?: number | undefined;
  /** Separates the entries of `TOOLRUN_TOOLS`: the platform's path delimiter unless given. */
  readonly delimiter?: string;
  /** How long one module may take to load (its top-level code, awaits included); default 30 s. */
  readonly loadTimeoutMs?: number;
}

/** Why start-up stopped: one line per problem, printable as is. */
export class ToolLoadError extends SetupProblemsError {
  override readonly name = "ToolLoadError";
}

export const MODULE_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"];
const EVERY_VARIABLE_EMPTY: Readonly<Record<string, string>> = new Proxy({}, { get: () => "" });
export const LOAD_TIMEOUT_MS = 30_000;

/**
 * How long a synchronous call of the tool may run: its `timeoutMs`, bounded by the service's
 * synchronous limit when the tool may run as a job (its job has the whole of `timeoutMs`).
 */
export function syncTimeoutOf(
  definition: { readonly timeoutMs: number; readonly jobs: string },
  syncTimeoutMs: number | undefined,
): number {
  if (definition.jobs === "no" || syncTimeoutMs === undefined) return definition.timeoutMs;
  return Math.min(definition.timeoutMs, syncTimeoutMs);
}

/** Loads and checks every tool; throws a ToolLoadError naming every problem. */
export async function loadTools(options: LoadToolsOptions): Promise<LoadedTool[]> {
  const problems: string[] = [];
  const loaded: LoadedTool[] = [];
  const bySlug = new Map<string, LoadedTool>();
  const add = (where: string, tool: CheckedTool, origin: ToolOrigin) => {
    const { slug } = tool.definition;
    const taken = bySlug.get(slug);
    if (taken) {
      problems.push(`${where}: the slug "${slug}" is already taken by ${describeOrigin(taken.origin)}`);
      return;
    }
    const entry = { ...tool, origin, secrets: {} };
    bySlug.set(slug, entry);
    loaded.push(entry);
  };

  options.builtIns.forEach((definition, index) => {
    const { where, check } = checkBuiltIn(definition, index);
    if (check.ok) add(where, check.tool, { kind: "built-in" });
    else problems.push(...check.problems.map((problem) => `${where}: ${problem}`));
  });

  const found = findModules(options.modules ?? "", options.cwd, options.delimiter ?? platformDelimiter);
  problems.push(...found.problems);
  for (const module of found.modules) {
    const where = `TOOLRUN_TOOLS: ${module.package ? `${module.package} (${module.path})` : module.path}`;
    const check = await loadModuleFile(module.path, options.loadTimeoutMs);
    if (check.ok) add(where, check.tool, { kind: "module", ...module });
    else problems.push(...check.problems.map((problem) => `${where}: ${problem}`));
  }

  if (options.httpTools !== undefined) {
    const { declarations, configPath } = options.httpTools;
    if (!Array.isArray(declarations)) problems.push("TOOLRUN_CONFIG: httpTools must be an array");
    else
      declarations.forEach((declaration: unknown, index) => {
        const slug = (declaration as { slug?: unknown } | null)?.slug;
        const where = `TOOLRUN_CONFIG: httpTools[${index}]${typeof slug === "string" ? ` ("${slug}")` : ""}`;
        const check = checkHttpTool(declaration);
        if (!check.ok) {
          problems.push(...check.problems.map((problem) => `${where}: ${problem}`));
          return;
        }
        const origin = { kind: "http", configPath, index } as const;
        if (options.readSecrets === false) {
          add(where, check.checked.tool, origin);
          return;
        }
        const headers = resolveHeaders(check.checked.declaration, options.env);
        if ("problems" in headers) {
          problems.push(...headers.problems.map((problem) => `${where}: ${problem}`));
          return;
        }
        if (options.upstream === undefined) throw new Error("loadTools: httpTools need an upstream");
        add(where, bindHttpTool(check.checked, headers.headers, options.upstream), origin);
      });
  }

  const slugs = loaded.map((tool) => tool.definition.slug);
  for (const slug of options.configured ?? [])
    if (!bySlug.has(slug))
      problems.push(`TOOLRUN_CONFIG: tools.${slug} is not a known tool (known: ${slugs.join(", ")})`);

  for (const [slug, raw] of Object.entries(options.secrets ?? {})) {
    const where = `TOOLRUN_CONFIG: tools.${slug}.secrets`;
    const tool = bySlug.get(slug);
    if (!tool) {
      if (!options.configured?.includes(slug)) problems.push(`${where}: no tool has the slug "${slug}"`);
      continue;
    }
    if (tool.origin.kind === "http")
      problems.push(`${where}: an HTTP tool reads its secrets in its headers, as \${NAME}`);
    else {
      // Without reading secrets, their syntax is still checked, against an environment that has
      // every variable and holds nothing.
      const env = options.readSecrets === false ? EVERY_VARIABLE_EMPTY : options.env;
      const resolved = resolveSecrets(raw, env, where);
      problems.push(...resolved.problems);
      const index = loaded.indexOf(tool);
      if (options.readSecrets !== false) loaded[index] = { ...tool, secrets: resolved.secrets };
    }
  }

  if (options.abandonAfterMs !== undefined) {
    for (const tool of loaded) {
      const { effects, jobs, slug } = tool.definition;
      // A job renews its lease while it runs; only a synchronous call must end before the sweep.
      if (effects !== "external" || jobs === "required") continue;
      const timeoutMs = syncTimeoutOf(tool.definition, options.syncTimeoutMs);
      if (timeoutMs >= options.abandonAfterMs)
        problems.push(
          `${describeOrigin(tool.origin)} ("${slug}"): ${jobs === "no" ? "timeoutMs" : "a synchronous call's time (the lower of timeoutMs and TOOLRUN_SYNC_TIMEOUT_S)"} (${timeoutMs}) must be below TOOLRUN_CALL_ABANDON_S (${options.abandonAfterMs / 1000} s), or the sweep of abandoned calls would release a call still running; lower it, raise TOOLRUN_CALL_ABANDON_S, or make the tool's jobs "required"`,
        );
    }
  }

  if (problems.length > 0) throw new ToolLoadError(problems);
  return loaded;
}

/**
 * Definitions given as values (the built-in tools, a test's tools), checked as loadTools checks
 * them: the same tools, synchronously. Throws a ToolLoadError naming every problem.
 */
export function checkedTools(definitions: readonly unknown[]): LoadedTool[] {
  const problems: string[] = [];
  const loaded: LoadedTool[] = [];
  definitions.forEach((definition, index) => {
    const { where, check } = checkBuiltIn(definition, index);
    if (check.ok) loaded.push({ ...check.tool, origin: { kind: "built-in" }, secrets: {} });
    else problems.push(...check.problems.map((problem) => `${where}: ${problem}`));
  });
  if (problems.length > 0) throw new ToolLoadError(problems);
  return loaded;
}

function checkBuiltIn(definition: unknown, index: number): { where: string; check: DefinitionCheck } {
  const slug = (definition as { slug?: unknown } | null)?.slug;
  return {
    where: `built-in tool ${typeof slug === "string" ? slug : `#${index}`}`,
    check: checkDefinition(definition),
  };
}

/** Imports one module file and checks its default export; what is wrong, each in one phrase. */
export async function loadModuleFile(
  path: string,
  loadTimeoutMs = LOAD_TIMEOUT_MS,
): Promise<DefinitionCheck> {
  let exported: unknown;
  try {
    exported = (await importWithin(path, loadTimeoutMs)).default;
  } catch (error) {
    return { ok: false, problems: [`cannot be loaded: ${firstLine(error)}`] };
  }
  if (exported === undefined)
    return { ok: false, problems: ["has no default export (export default the tool definition)"] };
  return checkDefinition(exported);
}

/** Where a tool came from, in a few words: `built-in`, its module's path, or its configuration entry. */
export function describeOrigin(origin: ToolOrigin): string {
  switch (origin.kind) {
    case "built-in":
      return "built-in";
    case "module":
      return origin.package ? `package ${origin.package} (${origin.path})` : origin.path;
    case "http":
      return `httpTools[${origin.index}] in ${origin.configPath}`;
  }
}

interface FoundModule {
  readonly path: string;
  readonly package?: string;
}

/**
 * The module files `TOOLRUN_TOOLS` names, in its order: a file as given; a folder's module files
 * directly inside it, by name, without tests (`*.test.*`), declarations (`*.d.ts`) or hidden files;
 * a package name resolved from `cwd` as `require.resolve` would. An entry is a path when it is
 * absolute, starts with `./` or `../`, or names something that exists relative to `cwd`.
 */
export function findModules(
  variable: string,
  cwd: string,
  delimiter: string = platformDelimiter,
): { readonly modules: FoundModule[]; readonly problems: string[] } {
  const modules: FoundModule[] = [];
  const problems: string[] = [];
  for (const entry of variable.split(delimiter).map((e) => e.trim())) {
    if (entry === "") continue;
    const where = `TOOLRUN_TOOLS: ${entry}`;
    const path = resolve(cwd, entry);
    const isPath = isAbsolute(entry) || /^\.\.?([/\\]|$)/.test(entry) || existsSync(path);
    if (!isPath) {
      try {
        modules.push({ path: createRequire(join(cwd, "package.json")).resolve(entry), package: entry });
      } catch (error) {
        problems.push(
          `${where}: is neither a file, a folder nor a package found from ${cwd} (${firstLine(error)})`,
        );
      }
      continue;
    }
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      problems.push(`${where}: no file or folder at ${path}`);
      continue;
    }
    if (!isFolder) {
      if (isModuleFile(path)) modules.push({ path });
      else problems.push(`${where}: is not a module file (${MODULE_EXTENSIONS.join(", ")})`);
      continue;
    }
    const inside = readdirSync(path)
      .filter(
        (name) =>
          isModuleFile(name) && !name.startsWith(".") && !/\.test\./.test(name) && !/\.d\.m?ts$/.test(name),
      )
      .sort()
      .map((name) => join(path, name))
      .filter((file) => statSync(file).isFile());
    if (inside.length === 0)
      problems.push(`${where}: the folder ${path} holds no module file (${MODULE_EXTENSIONS.join(", ")})`);
    modules.push(...inside.map((file) => ({ path: file })));
  }
  return { modules, problems };
}

/** Imports a module, or fails once `timeoutMs` has passed: a top-level await that never settles stops start-up too. */
async function importWithin(path: string, timeoutMs: number): Promise<{ default?: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`it did not finish loading within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([import(pathToFileURL(path).href) as Promise<{ default?: unknown }>, late]);
  } finally {
    clearTimeout(timer);
  }
}

function isModuleFile(name: string): boolean {
  return MODULE_EXTENSIONS.some((extension) => name.endsWith(extension));
}
