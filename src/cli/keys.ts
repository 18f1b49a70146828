/**
 * `toolrun keys ...`: create, list, revoke, rotate and re-plan API keys.
 */
import { type Config, MAX_COUNT } from "../config.ts";
import { createApiKey, revokeApiKey, rotateApiKey, setKeyPlan } from "../core/admin.ts";
import { monthlyAllowance, planOf } from "../core/credits.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import { openStore } from "./store.ts";
import { parse, UsageError } from "./usage.ts";

export async function runKeysCommand(config: Config, args: readonly string[]): Promise<number> {
  const [action, ...rest] = args;
  const store = await openStore(config);
  const out = (text: string) => process.stdout.write(`${text}\n`);
  try {
    switch (action) {
      case "create": {
        const { values } = parse(rest, {
          plan: { type: "string" },
          name: { type: "string" },
          credits: { type: "string" },
          json: { type: "boolean" },
        });
        if (!values.plan) throw new UsageError("keys create needs --plan (for example --plan free).");
        const credits = values.credits === undefined ? null : wholeNumber(values.credits, "--credits");
        const created = await createApiKey(store, config.settings, {
          plan: values.plan,
          name: values.name ?? "",
          monthlyAllowance: credits,
        });
        if (values.json) out(JSON.stringify(keyJson(created.record, config, created.key)));
        else {
          out(
            `Created key ${created.record.id} (plan ${created.record.plan}). Shown only this once:\n\n  ${created.key}\n`,
          );
        }
        return 0;
      }
      case "list": {
        const { values } = parse(rest, { json: { type: "boolean" } });
        const keys = await store.listKeys();
        if (values.json) out(JSON.stringify(keys.map((k) => keyJson(k, config))));
        else if (keys.length === 0) out("No keys yet: toolrun keys create --plan free");
        else {
          out(["ID", "PREFIX", "PLAN", "ALLOWANCE", "NAME", "CREATED", "REVOKED"].join("\t"));
          for (const k of keys) {
            out(
              [
                k.id,
                `${k.displayPrefix}…`,
                k.plan,
                monthlyAllowance(k, planOf(k, config.settings)),
                k.name || "-",
                k.createdAt,
                k.revokedAt ?? "-",
              ].join("\t"),
            );
          }
        }
        return 0;
      }
      case "revoke": {
        const id = onePositional(rest, "keys revoke ID");
        await revokeApiKey(store, id);
        out(`Revoked ${id}.`);
        return 0;
      }
      case "rotate": {
        const { values, positionals } = parse(rest, { json: { type: "boolean" } });
        const id = onePositional(positionals, "keys rotate ID");
        const rotated = await rotateApiKey(store, config.settings, id);
        if (values.json) out(JSON.stringify(keyJson(rotated.record, config, rotated.key)));
        else
          out(
            `New secret for ${id}; the old one no longer works. Shown only this once:\n\n  ${rotated.key}\n`,
          );
        return 0;
      }
      case "set-plan": {
        const { positionals } = parse(rest, {});
        if (positionals.length !== 2 || !positionals[0] || !positionals[1])
          throw new UsageError("Usage: keys set-plan ID PLAN");
        await setKeyPlan(store, config.settings, positionals[0], positionals[1]);
        out(`Key ${positionals[0]} is now on plan ${positionals[1]}.`);
        return 0;
      }
      default:
        throw new UsageError(
          `Unknown keys action "${action ?? ""}" (create, list, revoke, rotate, set-plan).`,
        );
    }
  } finally {
    await store.close();
  }
}

function keyJson(record: ApiKeyRecord, config: Config, key?: string) {
  return {
    id: record.id,
    ...(key === undefined ? { prefix: record.displayPrefix } : { key }),
    plan: record.plan,
    name: record.name,
    monthly_allowance: monthlyAllowance(record, planOf(record, config.settings)),
    created_at: record.createdAt,
    revoked_at: record.revokedAt,
  };
}

function onePositional(args: readonly string[], usage: string): string {
  const { positionals } = parse(args, {});
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError(`Usage: ${usage}`);
  return positionals[0];
}

function wholeNumber(raw: string, flag: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_COUNT)
    throw new UsageError(`${flag} must be a whole number from 0 to ${MAX_COUNT}, got "${raw}".`);
  return Number(raw);
}
