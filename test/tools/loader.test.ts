// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is the configuration's own syntax for environment variables
/**
 * Loading the tools: modules written in TypeScript and plain JS in a folder outside the repository
 * (with no node_modules near them), folders, package names, `httpTools`, and one line per problem
 * naming the module and what is wrong.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createHttpUpstream } from "../../src/adapters/http-upstream/index.ts";
import { describeOrigin, findModules, loadTools, ToolLoadError } from "../../src/core/tools/loader.ts";
import { runToolCall } from "../../src/core/tools/run.ts";
import { tools } from "../../src/tools/index.ts";
import { startUpstream, type TestUpstream } from "../helpers/upstream.ts";

/** A module tool in TypeScript: types from the public contract (erased), the 422 error from the context. */
const TS_TOOL = `
import type { ToolContext, ToolDefinition } from "toolrun/tool";

interface Input { text: string }
interface Output { reversed: string; secret: string | null }

const tool: ToolDefinition<Input, Output> = {
  slug: "reverse-text",
  name: "Reverse Text",
  description: "Reverses a text.",
  keywords: ["reverse"],
  version: "1.0.0",
  defaults: { weight: 1, maxBodyBytes: 1024 },
  inputSchema: { type: "object", required: ["text"], properties: { text: { type: "string" } } },
  outputSchema: { type: "object", required: ["reversed"], properties: { reversed: { type: "string" }, secret: { type: ["string", "null"] } } },
  examples: [{ title: "Hello", input: { text: "hello" } }],
  effects: "none",
  timeoutMs: 2000,
  async run(input: Input, context: ToolContext): Promise<Output> {
    if (input.text === "") throw new context.UnprocessableInputError("Nothing to reverse.");
    return { reversed: [...input.text].reverse().join(""), secret: context.secrets.salt ?? null };
  },
};
export default tool;
`;

/** The same in plain JS, typed by JSDoc only. */
const JS_TOOL = `
/** @type {import("toolrun/tool").ToolDefinition<{ n: number }, { square: number }>} */
export default {
  slug: "square",
  name: "Square",
  description: "Squares a number.",
  keywords: [],
  version: "0.1.0",
  defaults: { weight: 2, maxBodyBytes: 256 },
  inputSchema: { type: "object", required: ["n"], properties: { n: { type: "number" } } },
  outputSchema: { type: "object", properties: { square: { type: "number" } } },
  examples: [],
  effects: "none",
  run: ({ n }) => ({ square: n * n }),
};
`;

const module = (slug: string, extra = "") => `export default {
  slug: "${slug}", name: "T", description: "D", keywords: [], version: "1.0.0",
  defaults: { weight: 1, maxBodyBytes: 100 }, inputSchema: { type: "object" }, outputSchema: { type: "object" },
  examples: [], effects: "none", run: () => ({}), ${extra}
};
`;

/** A minimal valid `httpTools` entry. */
const httpTool = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug,
  name: "n",
  description: "d",
  version: "1.0.0",
  weight: 1,
  inputSchema: { type: "object" },
  url: "https://example.com/x",
  method: "GET",
  ...extra,
});

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

describe("loading tools", () => {
  let dir: string;
  let server: TestUpstream;
  const upstream = createHttpUpstream();
  const load = (modules: string, more: Partial<Parameters<typeof loadTools>[0]> = {}) =>
    loadTools({ builtIns: [], modules, env: {}, cwd: dir, upstream, ...more });
  const problemsOf = async (promise: Promise<unknown>): Promise<readonly string[]> => {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof ToolLoadError, String(error));
      return error.problems;
    }
    assert.fail("loading should have failed");
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-loader-"));
    server = await startUpstream();
    writeFiles(dir, {
      "tools/reverse.ts": TS_TOOL,
      "tools/square.mjs": JS_TOOL,
      "tools/square.test.mjs": "throw new Error('tests are not tools');",
      "tools/types.d.ts": "export type X = number;",
      "tools/.hidden.js": "throw new Error('hidden files are not tools');",
      "tools/notes.json": "{}",
      "tools/README.md": "# not a tool",
      "bad/throws.ts": "throw new Error('cannot start: missing config');\n",
      "bad/no-default.js": "export const tool = {};\n",
      "bad/enum.ts": "enum Color { Red }\nexport default Color;\n",
      "bad/bad-slug.js": module("Bad_Slug"),
      "bad/no-run.mjs": module("no-run").replace("run: () => ({}),", ""),
      "hangs/never.mjs": "await new Promise(() => {});\nexport default {};\n",
      "dup/a.js": module("same-slug"),
      "dup/b.js": module("same-slug"),
      "empty/.keep": "",
      "node_modules/toolrun-tool-hash/package.json": JSON.stringify({
        name: "toolrun-tool-hash",
        type: "module",
        exports: "./index.js",
      }),
      "node_modules/toolrun-tool-hash/index.js": module("hash-from-package"),
      "single.mts": module("single-file"),
    });
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  });

  it("loads every module file of a folder, TypeScript and JS, and leaves out tests, declarations and other files", async () => {
    const loaded = await load("tools");
    assert.deepEqual(
      loaded.map((tool) => [tool.definition.slug, describeOrigin(tool.origin)]),
      [
        ["reverse-text", join(dir, "tools/reverse.ts")],
        ["square", join(dir, "tools/square.mjs")],
      ],
    );
    const reverse = loaded[0];
    assert.ok(reverse);
    assert.equal(reverse.definition.timeoutMs, 2000);
    assert.deepEqual(await runToolCall(reverse, { text: "abc" }, { requestId: "r1" }), {
      ok: true,
      value: { reversed: "cba", secret: null },
    });
    const empty = await runToolCall(reverse, { text: "" }, { requestId: "r2" });
    assert.ok(!empty.ok);
    assert.equal(empty.httpStatus, 422);
    assert.equal((empty.error as Error).message, "Nothing to reverse.");
  });

  it("takes files, folders and package names in the order given, separated by the platform's delimiter", async () => {
    const loaded = await load(
      ["./single.mts", "toolrun-tool-hash", join(dir, "tools/square.mjs")].join(":"),
      {
        delimiter: ":",
      },
    );
    assert.deepEqual(
      loaded.map((tool) => [tool.definition.slug, describeOrigin(tool.origin)]),
      [
        ["single-file", join(dir, "single.mts")],
        [
          "hash-from-package",
          `package toolrun-tool-hash (${join(dir, "node_modules/toolrun-tool-hash/index.js")})`,
        ],
        ["square", join(dir, "tools/square.mjs")],
      ],
    );
    const windows = findModules("single.mts;tools", dir, ";");
    assert.deepEqual(windows.problems, []);
    assert.equal(windows.modules.length, 3);
  });

  it("puts the built-in tools first and the HTTP tools last, each with where it came from", async () => {
    const loaded = await load("single.mts", {
      builtIns: tools.map((tool) => ({ ...tool, effects: "none" })),
      httpTools: {
        configPath: "/etc/toolrun.json",
        declarations: [
          {
            slug: "echo-upstream",
            name: "Echo",
            description: "Echoes.",
            version: "1.0.0",
            weight: 1,
            inputSchema: { type: "object" },
            url: `${server.origin}/echo`,
            method: "POST",
            headers: { authorization: "Bearer ${ECHO_TOKEN}" },
          },
        ],
      },
      env: { ECHO_TOKEN: "s3cret" },
    });
    assert.deepEqual(
      loaded.map((tool) => [tool.definition.slug, describeOrigin(tool.origin), tool.definition.effects]),
      [
        ["retaining-wall-pressure-calculator", "built-in", "none"],
        ["webhook-payload-inspector", "built-in", "none"],
        ["single-file", join(dir, "single.mts"), "none"],
        ["echo-upstream", "httpTools[0] in /etc/toolrun.json", "external"],
      ],
    );
    const echo = loaded[3];
    assert.ok(echo);
    const answer = await runToolCall(echo, { hello: "world" }, { requestId: "r" });
    assert.ok(answer.ok);
    assert.equal((answer.value.headers as Record<string, string>).authorization, "Bearer s3cret");
  });

  it("gives a module its secrets from the environment", async () => {
    const [reverse] = await load("tools/reverse.ts", {
      secrets: { "reverse-text": { salt: "${SALT}-1" } },
      env: { SALT: "pepper" },
    });
    assert.ok(reverse);
    assert.deepEqual(reverse.secrets, { salt: "pepper-1" });
    assert.deepEqual(
      await runToolCall(reverse, { text: "ab" }, { requestId: "r", secrets: reverse.secrets }),
      {
        ok: true,
        value: { reversed: "ba", secret: "pepper-1" },
      },
    );
  });

  it("names each module that fails to load or breaks the contract, all at once, one line each", async () => {
    const problems = await problemsOf(load("bad"));
    const file = (name: string) => `TOOLRUN_TOOLS: ${join(dir, "bad", name)}: `;
    assert.equal(problems.length, 5, problems.join("\n"));
    for (const problem of problems) assert.doesNotMatch(problem, /\n/);
    assert.ok(
      problems.includes(
        `${file("bad-slug.js")}slug must be lowercase letters, digits and single hyphens, starting with a letter, at most 64 characters`,
      ),
    );
    assert.match(
      problems.find((p) => p.startsWith(file("enum.ts"))) ?? "",
      /cannot be loaded: .*TypeScript/i,
    );
    assert.ok(
      problems.includes(`${file("no-default.js")}has no default export (export default the tool definition)`),
    );
    assert.ok(problems.includes(`${file("no-run.mjs")}run must be a function`));
    assert.ok(problems.includes(`${file("throws.ts")}cannot be loaded: cannot start: missing config`));
  });

  it("names a module whose loading never finishes", async () => {
    assert.deepEqual(await problemsOf(load("hangs", { loadTimeoutMs: 100 })), [
      `TOOLRUN_TOOLS: ${join(dir, "hangs/never.mjs")}: cannot be loaded: it did not finish loading within 100 ms`,
    ]);
  });

  it("refuses a slug taken twice, naming both places", async () => {
    const problems = await problemsOf(load("dup", { builtIns: [] }));
    assert.deepEqual(problems, [
      `TOOLRUN_TOOLS: ${join(dir, "dup/b.js")}: the slug "same-slug" is already taken by ${join(dir, "dup/a.js")}`,
    ]);
    const clash = await problemsOf(
      load("", {
        builtIns: [{ ...tools[0], effects: "none" }],
        httpTools: {
          configPath: "c.json",
          declarations: [httpTool(tools[0]?.slug ?? "")],
        },
      }),
    );
    assert.deepEqual(clash, [
      `TOOLRUN_CONFIG: httpTools[0] ("${tools[0]?.slug}"): the slug "${tools[0]?.slug}" is already taken by built-in`,
    ]);
  });

  it("names entries that are not there, not modules, empty folders and unknown packages", async () => {
    const problems = await problemsOf(
      load(["./missing.ts", "tools/notes.json", "empty", "no-such-package"].join(":"), { delimiter: ":" }),
    );
    assert.equal(problems.length, 4, problems.join("\n"));
    assert.equal(problems[0], `TOOLRUN_TOOLS: ./missing.ts: no file or folder at ${join(dir, "missing.ts")}`);
    assert.equal(problems[1], "TOOLRUN_TOOLS: tools/notes.json: is not a module file (.ts, .mts, .js, .mjs)");
    assert.equal(
      problems[2],
      `TOOLRUN_TOOLS: empty: the folder ${join(dir, "empty")} holds no module file (.ts, .mts, .js, .mjs)`,
    );
    assert.match(
      problems[3] ?? "",
      /^TOOLRUN_TOOLS: no-such-package: is neither a file, a folder nor a package found from /,
    );
  });

  it("names a missing header variable and a secret's, never a value", async () => {
    const problems = await problemsOf(
      load("tools/reverse.ts", {
        env: { PRESENT: "value-must-not-appear" },
        secrets: {
          "reverse-text": { apiKey: "${ABSENT_KEY}", other: "${PRESENT}" },
          "no-such-tool": { a: "b" },
        },
        httpTools: {
          configPath: "c.json",
          declarations: [
            httpTool("needs-token", {
              headers: { authorization: "Bearer ${MISSING_TOKEN}", "x-other": "${PRESENT}" },
            }),
          ],
        },
      }),
    );
    assert.deepEqual(problems, [
      'TOOLRUN_CONFIG: httpTools[0] ("needs-token"): headers.authorization needs the environment variable MISSING_TOKEN, which is not set',
      "TOOLRUN_CONFIG: tools.reverse-text.secrets.apiKey needs the environment variable ABSENT_KEY, which is not set",
      'TOOLRUN_CONFIG: tools.no-such-tool.secrets: no tool has the slug "no-such-tool"',
    ]);
  });

  it("names the configuration's tool settings for a slug no tool has, once every tool is loaded", async () => {
    const loaded = await load("tools/reverse.ts", {
      builtIns: tools,
      configured: ["reverse-text", "webhook-payload-inspector"],
    });
    assert.equal(loaded.length, 3);
    assert.deepEqual(
      await problemsOf(load("tools/reverse.ts", { configured: ["reverse-text", "revers-text"] })),
      ["TOOLRUN_CONFIG: tools.revers-text is not a known tool (known: reverse-text)"],
    );
  });

  it("refuses a tool with effects outside whose timeout reaches the abandon time, since the sweep would release it running", async () => {
    const declarations = [
      httpTool("slow-api", { method: "POST", timeoutMs: 120_000 }),
      httpTool("quick-api", { method: "POST", timeoutMs: 119_999 }),
      // A lookup holds no reservation either.
      httpTool("slow-lookup", { method: "GET", timeoutMs: 120_000 }),
    ];
    assert.deepEqual(
      await problemsOf(
        load("", { httpTools: { configPath: "c.json", declarations }, abandonAfterMs: 120_000 }),
      ),
      [
        'httpTools[0] in c.json ("slow-api"): a synchronous call\'s time (the lower of timeoutMs and TOOLRUN_SYNC_TIMEOUT_S) (120000) must be below TOOLRUN_CALL_ABANDON_S (120 s), or the sweep of abandoned calls would release a call still running; lower it, raise TOOLRUN_CALL_ABANDON_S, or make the tool\'s jobs "required"',
      ],
    );
    // A job renews its lease: a tool whose every call is a job may take longer, and so may one
    // whose synchronous calls TOOLRUN_SYNC_TIMEOUT_S ends in time.
    const jobTools = [
      httpTool("report", { method: "POST", timeoutMs: 3_600_000, jobs: "required" }),
      httpTool("export", { method: "POST", timeoutMs: 3_600_000, jobs: "optional" }),
    ];
    const loaded = await load("", {
      httpTools: { configPath: "c.json", declarations: jobTools },
      abandonAfterMs: 120_000,
      syncTimeoutMs: 60_000,
    });
    assert.deepEqual(
      loaded.map((tool) => [tool.definition.slug, tool.definition.jobs, tool.definition.timeoutMs]),
      [
        ["report", "required", 3_600_000],
        ["export", "optional", 3_600_000],
      ],
    );
    // A tool that only computes holds no reservation: its timeout is its own.
    const computing = await load("tools/reverse.ts", { abandonAfterMs: 1000 });
    assert.equal(computing[0]?.definition.timeoutMs, 2000);
  });

  it("says when httpTools is not an array", async () => {
    assert.deepEqual(await problemsOf(load("", { httpTools: { configPath: "c.json", declarations: {} } })), [
      "TOOLRUN_CONFIG: httpTools must be an array",
    ]);
  });
});
