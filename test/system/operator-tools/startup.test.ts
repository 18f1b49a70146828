// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is the configuration's own syntax for environment variables
/**
 * A tool that cannot be served stops `toolrun serve`, and every other command, before anything
 * starts: exit code 2, one line per problem naming the module or the configuration entry and what
 * is wrong with it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { lines, toolrun } from "../run.ts";

const GOOD = `export default {
  slug: "fine-tool", name: "Fine", description: "Fine.", keywords: [], version: "1.0.0",
  defaults: { weight: 1, maxBodyBytes: 1024 },
  inputSchema: { type: "object" }, outputSchema: { type: "object" }, examples: [],
  effects: "none", run: () => ({}),
};
`;

describe("start-up with a tool that cannot be served", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-tool-startup-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const config = (value: unknown) =>
    file(`config-${Math.random().toString(36).slice(2)}.json`, JSON.stringify(value));
  const httpTool = (change: Record<string, unknown> = {}) => ({
    slug: "lookup",
    name: "Lookup",
    description: "Looks up.",
    version: "1.0.0",
    weight: 1,
    inputSchema: { type: "object" },
    url: "http://127.0.0.1:9/items",
    method: "GET",
    ...change,
  });

  async function refused(args: string[], env: Record<string, string>, expected: RegExp[]): Promise<void> {
    const ended = await toolrun(args, { TOOLRUN_DATABASE: join(dir, "toolrun.db"), PORT: "0", ...env }, dir);
    assert.equal(ended.code, 2, `${ended.stdout}\n${ended.stderr}`);
    const said = lines(ended.stderr);
    assert.equal(said.length, expected.length, said.join("\n"));
    for (const [i, line] of expected.entries()) assert.match(said[i] ?? "", line);
    assert.doesNotMatch(ended.stderr, /listening| {4}at /, "it never started, and printed no stack");
  }

  it("names a module that breaks the contract, and one that cannot be loaded, every problem at once", async () => {
    const bad = file(
      "bad-slug.ts",
      GOOD.replace('"fine-tool"', '"Bad Slug"').replace('"none"', '"sometimes"'),
    );
    const broken = file("broken.ts", "export default {\n  this is not JavaScript\n");
    await refused(["serve"], { TOOLRUN_TOOLS: [bad, broken].join(":") }, [
      /^toolrun: TOOLRUN_TOOLS: .*bad-slug\.ts: slug must be lowercase letters/,
      /^toolrun: TOOLRUN_TOOLS: .*bad-slug\.ts: effects must be "none" or "external"$/,
      /^toolrun: TOOLRUN_TOOLS: .*broken\.ts: cannot be loaded: /,
    ]);
  });

  it("names a module whose slug another tool has", async () => {
    const copy = file("copy.ts", GOOD.replace('"fine-tool"', '"retaining-wall-pressure-calculator"'));
    await refused(["serve"], { TOOLRUN_TOOLS: copy }, [
      /^toolrun: TOOLRUN_TOOLS: .*copy\.ts: the slug "retaining-wall-pressure-calculator" is already taken by built-in$/,
    ]);
  });

  it("names an httpTools entry, and a secret whose variable is not set", async () => {
    const path = config({
      httpTools: [
        httpTool({ url: "ftp://example.com/x" }),
        httpTool({ slug: "two", headers: { "X-Key": "${NOT_SET_ANYWHERE}" } }),
      ],
    });
    await refused(["serve"], { TOOLRUN_CONFIG: path }, [
      /^toolrun: TOOLRUN_CONFIG: httpTools\[0\] \("lookup"\): url /,
      /^toolrun: TOOLRUN_CONFIG: httpTools\[1\] \("two"\): headers\.X-Key .*NOT_SET_ANYWHERE/,
    ]);
  });

  it("refuses a tool with effects outside whose timeout reaches TOOLRUN_CALL_ABANDON_S", async () => {
    const path = config({ httpTools: [httpTool({ method: "POST", timeoutMs: 60_000 })] });
    await refused(["serve"], { TOOLRUN_CONFIG: path, TOOLRUN_CALL_ABANDON_S: "60" }, [
      // A POST tool may run as a job (jobs "optional"): its synchronous calls are what the sweep could cut short.
      /^toolrun: httpTools\[0\] in .*\("lookup"\): a synchronous call's time \(the lower of timeoutMs and TOOLRUN_SYNC_TIMEOUT_S\) \(60000\) must be below TOOLRUN_CALL_ABANDON_S \(60 s\)/,
    ]);
  });

  it("refuses settings for a tool that no module or entry provides", async () => {
    const path = config({ tools: { "no-such-tool": { weight: 3 } } });
    await refused(["serve"], { TOOLRUN_CONFIG: path }, [
      /^toolrun: TOOLRUN_CONFIG: tools\.no-such-tool is not a known tool \(known: retaining-wall-pressure-calculator, webhook-payload-inspector\)$/,
    ]);
  });

  it("stops the other commands the same way", async () => {
    const bad = file("bad-for-cli.ts", GOOD.replace("run: () => ({}),", ""));
    assert.equal((await toolrun(["migrate"], { TOOLRUN_DATABASE: join(dir, "toolrun.db") }, dir)).code, 0);
    await refused(["tools", "list"], { TOOLRUN_TOOLS: bad }, [
      /^toolrun: TOOLRUN_TOOLS: .*bad-for-cli\.ts: run must be a function$/,
    ]);
  });
});
