/**
 * The client as another project gets it: `npm pack` in clients/typescript, the tarball installed
 * into a new project outside the checkout with the machine's own Node (20) and npm, the README's
 * example compiled there by tsc against the installed types and run on that Node against a started
 * server.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { migratedDatabase, runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { PINNED_NODE, ROOT, run } from "../run.ts";
import { machineEnv, NO_SYSTEM_NODE, SYSTEM_NODE, SYSTEM_NODE_VERSION } from "./machine.ts";

const CLIENT = join(ROOT, "clients/typescript");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

/** The first ```ts block of a README: its client example. */
function readmeExample(readme: string): string {
  const example = /```ts\n([\s\S]*?)```/.exec(readFileSync(readme, "utf8"))?.[1];
  assert.ok(example, `${readme} has a \`\`\`ts example`);
  return example;
}

describe(`the packed client in another project, on the machine's Node ${SYSTEM_NODE_VERSION ?? ""}`, {
  skip: NO_SYSTEM_NODE,
  timeout: 600_000,
}, () => {
  let dir: string;
  let project: string;
  let server: ServerProcess;
  let key: string;
  let cleanupDatabase: () => void;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-packed-client-"));
    project = join(dir, "consumer");
    const database = await migratedDatabase("toolrun-packed-client-db-");
    cleanupDatabase = () => rmSync(database.dir, { recursive: true, force: true });
    const created = await runCli(
      ["keys", "create", "--plan", "free", "--name", "consumer", "--json"],
      database.env,
    );
    assert.equal(created.code, 0, created.stderr);
    key = (JSON.parse(created.stdout) as { key: string }).key;
    server = await startServerProcess(database.env);
  });
  after(async () => {
    await server?.stop();
    cleanupDatabase?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it("packs the built JavaScript and its types, installs from the tarball, and runs the README's example", async () => {
    const packed = await run("npm", ["pack", "--json", "--pack-destination", dir], machineEnv(), CLIENT);
    assert.equal(packed.code, 0, packed.stderr);
    const [manifest] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    assert.ok(manifest);
    const files = manifest.files.map((f) => f.path).sort();
    for (const file of ["README.md", "dist/index.js", "dist/index.d.ts", "dist/schema.d.ts", "package.json"])
      assert.ok(files.includes(file), `${file} is in the tarball: ${files.join(", ")}`);
    assert.ok(!files.some((f) => f.startsWith("src/")), "no TypeScript source to build");

    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }),
    );
    const installed = await run(
      "npm",
      ["install", "--no-audit", "--no-fund", join(dir, manifest.filename)],
      machineEnv(),
      project,
    );
    assert.equal(installed.code, 0, installed.stderr);

    writeFileSync(join(project, "example.ts"), readmeExample(join(CLIENT, "README.md")));
    // Type-checked against the installed package's .d.ts, then run as the JavaScript tsc emits.
    const compiled = await run(
      process.execPath,
      [
        TSC,
        "--strict",
        "--noUncheckedIndexedAccess",
        "--target",
        "es2022",
        "--module",
        "nodenext",
        "--types",
        "node",
        "--typeRoots",
        join(ROOT, "node_modules/@types"),
        "example.ts",
      ],
      machineEnv(),
      project,
    );
    assert.equal(compiled.code, 0, compiled.stdout + compiled.stderr);

    const example = () =>
      run(
        SYSTEM_NODE ?? "node",
        ["example.js"],
        machineEnv({ TOOLRUN_URL: server.url, TOOLRUN_KEY: key }),
        project,
      );
    const ran = await example();
    assert.equal(ran.code, 0, ran.stderr);
    const [status, ...usage] = ran.stdout.trim().split("\n");
    assert.match(status ?? "", /^Active thrust .* kN\/m acting .* m above the base \(998 credits left\)$/);
    assert.equal(usage.length, 1, ran.stdout);
    assert.match(usage[0] ?? "", / retaining-wall-pressure-calculator charged 2$/);

    // Run again: the same idempotencyKey gets the first answer, and nothing more is charged.
    const again = await example();
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, ran.stdout);
  });

  it("in the checkout, the root README's example runs as it is, on the installed client", async () => {
    mkdirSync(join(ROOT, ".tmp"), { recursive: true });
    const scratch = mkdtempSync(join(ROOT, ".tmp", "readme-example-"));
    try {
      writeFileSync(join(scratch, "example.ts"), readmeExample(join(ROOT, "README.md")));
      const ran = await run(
        PINNED_NODE,
        ["example.ts"],
        { TOOLRUN_URL: server.url, TOOLRUN_KEY: key },
        scratch,
      );
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stdout, /^Active thrust .* kN\/m acting .* m above the base \d+\n$/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
