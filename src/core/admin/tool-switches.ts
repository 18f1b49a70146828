/**
 * The tools with their operator switches as stored now (not the few seconds old copy calls use),
 * for the admin API and `toolrun tools list`.
 */
import type { SwitchStore, ToolSwitch } from "../../ports/store.ts";
import { ApiError } from "../kernel/errors.ts";
import type { RegisteredTool, ToolRegistry } from "../tools/registry.ts";

export interface ToolSwitchView {
  slug: string;
  tool_version: string;
  weight: number;
  max_body_bytes: number;
  enabled: boolean;
  api: boolean;
}

interface SwitchDeps {
  readonly store: Pick<SwitchStore, "getSwitches">;
  readonly registry: ToolRegistry;
}

function view(tool: RegisteredTool, stored: ToolSwitch | undefined): ToolSwitchView {
  return {
    slug: tool.slug,
    tool_version: tool.definition.version,
    weight: tool.weight,
    max_body_bytes: tool.maxBodyBytes,
    enabled: stored?.enabled ?? tool.enabledByDefault,
    api: stored?.api ?? tool.apiByDefault,
  };
}

export async function toolSwitchViews(deps: SwitchDeps): Promise<ToolSwitchView[]> {
  const stored = await deps.store.getSwitches();
  return deps.registry.all().map((tool) => view(tool, stored.get(tool.slug)));
}

export async function toolSwitchView(deps: SwitchDeps, slug: string): Promise<ToolSwitchView> {
  const tool = deps.registry.get(slug);
  if (!tool) throw new ApiError("tool_not_found", "No tool has this slug.");
  return view(tool, (await deps.store.getSwitches()).get(slug));
}
