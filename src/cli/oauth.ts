/**
 * `toolrun keys authorizations ID` and `toolrun keys deauthorize ID AUTHORIZATION_ID`: a key's
 * OAuth authorizations (what its holder approved for MCP clients; not credit grants), listed and
 * revoked through the same core functions as the admin API, so each revocation is audited.
 */
import type { Command } from "commander";
import { deauthorize, listAuthorizations } from "../core/oauth/authorizations.ts";
import { type CliContext, withDeps } from "./context.ts";
import { formatTable } from "./table.ts";

export function registerKeyAuthorizationCommands(keys: Command, cli: CliContext): void {
  keys
    .command("authorizations")
    .description("list the OAuth authorizations that act for a key (MCP clients signed in with it)")
    .argument("<id>", "the key's id (key_...)")
    .option("--json", "print a JSON array, as every list command does")
    .action((id: string, options: { json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const { authorizations } = await listAuthorizations(deps, id);
        if (options.json) return cli.out(JSON.stringify(authorizations));
        if (authorizations.length === 0) return cli.out(`Key ${id} has no OAuth authorizations.`);
        cli.out(
          formatTable(
            ["AUTHORIZATION", "CLIENT", "CLIENT ID", "SCOPE", "CREATED", "EXPIRES"],
            authorizations.map((a) => [
              a.id,
              a.client_name,
              a.client_id,
              a.scope,
              a.created_at,
              a.expires_at,
            ]),
          ),
        );
      }),
    );

  keys
    .command("deauthorize")
    .description("revoke one OAuth authorization of a key at once (its client must sign in again)")
    .argument("<id>", "the key's id (key_...)")
    .argument("<authorization_id>", "the authorization's id, from `toolrun keys authorizations ID`")
    .action((id: string, authorizationId: string) =>
      withDeps(cli, async (deps) => {
        await deauthorize(deps, cli.actor(), id, authorizationId);
        cli.out(`Revoked OAuth authorization ${authorizationId} of ${id}.`);
      }),
    );
}
