/**
 * `toolrun migrate`: applies the schema and says which migrations it applied;
 * `toolrun migrate status`: says whether any are pending, changing nothing.
 */
import type { Command } from "commander";
import { databaseError, describeDatabase } from "../startup.ts";
import { type CliContext, openDeps, openExisting } from "./context.ts";

export function registerMigrateCommands(program: Command, cli: CliContext): void {
  const migrate = program
    .command("migrate")
    .description("apply the database schema (creates a SQLite file that is not there yet)")
    .action(async () => {
      const config = cli.config();
      const deps = await openDeps(config);
      try {
        const applied = await deps.store.migrate().catch((error: unknown) => {
          throw databaseError(config, "cannot apply the schema", error);
        });
        const where = `${config.database.kind} at ${describeDatabase(config)}`;
        cli.out(
          applied.length === 0
            ? `Nothing to apply: the schema is up to date (${where}).`
            : `Applied migration${applied.length === 1 ? "" : "s"} ${applied.join(", ")} (${where}); the schema is up to date.`,
        );
      } finally {
        await deps.close();
      }
    });

  migrate
    .command("status")
    .description("say whether migrations are pending (exit code 1 when they are); changes nothing")
    .action(async () => {
      const config = cli.config();
      // A SQLite file that is not there is reported, not created.
      const deps =
        config.database.kind === "sqlite"
          ? await openExisting(config, cli.env, { migrate: false })
          : await openDeps(config);
      try {
        const where = `${config.database.kind} at ${describeDatabase(config)}`;
        if (await deps.store.isMigrated()) cli.out(`The schema is up to date (${where}).`);
        else {
          cli.out(`Migrations are pending (${where}): run \`toolrun migrate\`.`);
          cli.exit(1);
        }
      } finally {
        await deps.close();
      }
    });
}
