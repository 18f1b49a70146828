/**
 * The client as another project gets it, following its README's "In a new project" word for word
 * (the checkout's path put for `/path/to/toolrun`): in an empty folder outside the checkout, with
 * the machine's own Node (20) and npm, the tarball packed and installed, TypeScript and Node's types
 * from the registry, the types of the running service's tools written by the package's
 * `toolrun-types`, and the README's example, a typed call of an operator's tool (the checkout's
 * `examples/tools`), compiled by tsc and run on that Node against the started server.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { migratedDatabase, runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { PINNED_NODE, ROOT, run } from "../run.ts";
import { machineEnv, NO_SYSTEM_NODE, SYSTEM_NODE_VERSION } from "./machine.ts";

const CLIENT_README = join(ROOT, "clients/typescript/README.md");

/** The first ```ts block of a README: its client example. */
function readmeExample(readme: string): string {
  const example = /```ts\n([\s\S]*?)```/.exec(readFileSync(readme, "utf8"))?.[1];
  assert.ok(example, `${readme} has a \`\`\`ts example`);
  return example;
}

/** The ```sh blocks of a README's section, in order. */
function sectionCommands(readme: string, heading: string): string[] {
  const text = readFileSync(readme, "utf8");
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `${readme} has a section ${heading}`);
  const end = text.indexOf("\n## ", start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

describe(`the packed client in a new project, on the machine's Node ${SYSTEM_NODE_VERSION ?? ""}`, {
  skip: NO_SYSTEM_NODE,
  timeout: 900_000,
}, () => {
  let dir: string;
  let server: ServerProcess;
  let key: string;
  let cleanupDatabase: () => void;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-packed-client-"));
    const database = await migratedDatabase("toolrun-packed-client-db-");
    cleanupDatabase = () => rmSync(database.dir, { recursive: true, force: true });
    const created = await runCli(
      ["keys", "create", "--plan", "free", "--name", "consumer", "--json"],
      database.env,
    );
    assert.equal(created.code, 0, created.stderr);
    key = (JSON.parse(created.stdout) as { key: string }).key;
    server = await startServerProcess({ ...database.env, TOOLRUN_TOOLS: join(ROOT, "examples/tools") });
  });
  after(async () => {
    await server?.stop();
    cleanupDatabase?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it("follows the README: packs and installs the client, writes the tools' types, compiles and runs the example", async () => {
    const project = join(dir, "hello-toolrun");
    mkdirSync(project);
    const env = machineEnv({ TOOLRUN_URL: server.url, TOOLRUN_KEY: key, HOME: dir });
    const shell = async (commands: string) => {
      const ran = await run(
        "bash",
        ["-euo", "pipefail", "-c", commands.replaceAll("/path/to/toolrun", ROOT)],
        env,
        project,
      );
      assert.equal(ran.code, 0, `${commands}\n${ran.stdout}\n${ran.stderr}`);
      return ran;
    };
    const [setup, compileAndRun, ...more] = sectionCommands(CLIENT_README, "In a new project");
    assert.ok(
      setup && compileAndRun && more.length === 0,
      "two blocks of commands: set up, then compile and run",
    );

    await shell(setup);
    // The tarball holds the built JavaScript and its types, and no source to build.
    const tarball = readdirSync(project).find((name) => name.endsWith(".tgz"));
    assert.equal(tarball, "toolrun-client-0.1.0.tgz");
    const listed = await run("tar", ["-tzf", tarball], env, project);
    const files = listed.stdout.trim().split("\n").sort();
    for (const file of [
      "README.md",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/schema.d.ts",
      "dist/types-cli.js",
    ])
      assert.ok(files.includes(`package/${file}`), `${file} is in the tarball: ${files.join(", ")}`);
    assert.ok(!files.some((f) => f.startsWith("package/src/")), "no TypeScript source to build");
    const types = readFileSync(join(project, "toolrun-tools.ts"), "utf8");
    assert.match(types, /"unit-converter": \{/);
    assert.match(types, /"retaining-wall-pressure-calculator": \{/);

    writeFileSync(join(project, "example.ts"), readmeExample(CLIENT_README));
    const ran = await shell(compileAndRun);
    const [converted, ...usage] = ran.stdout.trim().split("\n");
    assert.match(converted ?? "", /^42\.195 km = 26\.2\d* mi \(\d+ credits left\)$/);
    assert.equal(usage.length, 1, ran.stdout);
    assert.match(usage[0] ?? "", / unit-converter charged \d+$/);

    // Run again: the same idempotencyKey gets the first answer, and nothing more is charged.
    const again = await shell(compileAndRun);
    assert.equal(again.stdout, ran.stdout);
  });

  it("refuses, when compiling, an input the operator's tool does not take", async () => {
    const project = join(dir, "hello-toolrun");
    const env = machineEnv({ HOME: dir });
    writeFileSync(
      join(project, "wrong.ts"),
      readmeExample(CLIENT_README).replace('from: "km"', 'from: "furlong"'),
    );
    const compiled = await run(
      "npx",
      ["tsc", "--strict", "--module", "nodenext", "--target", "es2022", "--types", "node", "wrong.ts"],
      env,
      project,
    );
    assert.notEqual(compiled.code, 0);
    assert.match(compiled.stdout, /wrong\.ts\(\d+,\d+\): error TS2322: Type '"furlong"' is not assignable/);
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
