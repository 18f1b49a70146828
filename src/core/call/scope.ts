/**
 * A key's scope, the one place that decides it: the tools it may see and call (`tools`, null for
 * every tool) and what it may do with them (`access`). A tool outside the key's list does not
 * exist for the key: every read and call of it answers the 404 an unknown slug gets, word for word,
 * before any slot is taken. A `read` key makes every free read but no tool call: 403
 * `key_read_only`, after its slot, before anything is charged. An OAuth authorization narrowed at
 * consent acts as its key with the two lists intersected (`narrowKey`), so narrowing the key later
 * narrows the authorization too.
 */
import type { ApiKeyRecord } from "../../ports/store.ts";
import { ApiError } from "../kernel/errors.ts";
import { type RegisteredTool, type ToolRegistry, toolNotFound } from "../tools/registry.ts";

type Scoped = Pick<ApiKeyRecord, "tools">;

/** Whether the key may see and call the tool of `slug` (whether there is one is the registry's). */
export function keyMayUse(key: Scoped, slug: string): boolean {
  return key.tools === null || key.tools.includes(slug);
}

/** The tool of `slug` as the key sees it: 404 `tool_not_found` for a slug no tool has or one outside its tools. */
export function resolveForKey(registry: ToolRegistry, key: Scoped, slug: string): RegisteredTool {
  if (!keyMayUse(key, slug)) throw toolNotFound();
  return registry.resolve(slug);
}

/** The tools the key sees, in the registry's order. */
export function toolsForKey(registry: ToolRegistry, key: Scoped): readonly RegisteredTool[] {
  const all = registry.all();
  return key.tools === null ? all : all.filter((tool) => keyMayUse(key, tool.slug));
}

/** 403 `key_read_only` for a key whose access is `read`: it may make the free reads, never a tool call. */
export function checkMayCall(key: Pick<ApiKeyRecord, "access">, tool: RegisteredTool): void {
  if (key.access === "read")
    throw new ApiError(
      "key_read_only",
      `This API key is read-only: it may read the catalog and its account, but not call "${tool.slug}". Use a key with full access.`,
    );
}

/**
 * The key as an authorization narrowed to `tools` acts: only the tools both lists hold (null for
 * the key's own). An authorization never widens its key.
 */
export function narrowKey<K extends ApiKeyRecord>(key: K, tools: readonly string[] | null): K {
  if (tools === null) return key;
  const own = key.tools;
  return { ...key, tools: own === null ? [...tools] : tools.filter((slug) => own.includes(slug)) };
}
