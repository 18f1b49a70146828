/**
 * `node bench/compute-fairness.ts [--before DIR] [--rounds N] [--flood N] [--flood-keys N]
 * [--flood-ms MS] [--flood-body plain|slow] [--flood-window-ms MS] [--no-attack]`: one
 * key against the others on the compute offload (bench/lib/fairness.ts), on a real `toolrun
 * serve` with a fresh SQLite database: a plain 1 MiB inspector call's time alone and beside six of
 * another key's slowest calls, then the server's resident memory and the answers under a flood of
 * 1 MiB calls from many keys, sent over `--flood-ms` (faster than the worker computes them): plain
 * pushes, or the slowest calls (`--flood-body slow`), watched for `--flood-window-ms` at most. With `--before DIR` (another checkout, its `npm ci` done) the same
 * runs alternate between that build and this one, round by round, so both meet the same machine.
 *
 * `node bench/compute-fairness.ts --inspector [--before DIR]`: the inspector's own time, in this
 * process, on that slowest call and on a plain 1 MiB push.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { attack, createKeys, flood } from "./lib/fairness.ts";
import { githubPushNear, stripeManySignatures } from "./lib/payloads.ts";
import { cleanEnv, runToolrun } from "./lib/procs.ts";

const { values } = parseArgs({
  options: {
    before: { type: "string" },
    rounds: { type: "string", default: "2" },
    flood: { type: "string", default: "150" },
    "flood-keys": { type: "string", default: "50" },
    "flood-ms": { type: "string", default: "3000" },
    "no-attack": { type: "boolean", default: false },
    "flood-body": { type: "string", default: "plain" },
    "flood-window-ms": { type: "string" },
    inspector: { type: "boolean", default: false },
  },
});
const HERE = fileURLToPath(new URL("..", import.meta.url));
const builds: { name: string; dir: string }[] = [
  ...(values.before ? [{ name: "before", dir: resolve(values.before) }] : []),
  { name: "after", dir: HERE },
];
const rounds = Number(values.rounds);

const print = (line: string) => process.stdout.write(`${line}\n`);
const ms = (n: number) => `${Math.round(n)} ms`;

async function inspectorOnly(): Promise<void> {
  const bodies = {
    "4,000 signatures, 1 MiB": stripeManySignatures(),
    // Under the offload's 64 KiB: what the main thread computes itself.
    "800 signatures, 60 KiB": stripeManySignatures(800, 60 * 1024),
    "plain 1 MiB push": githubPushNear(),
  };
  for (let round = 1; round <= rounds; round++) {
    for (const build of builds) {
      const { webhookPayloadInspector } = await import(
        join(build.dir, "src/tools/webhook-payload-inspector/index.ts")
      );
      for (const [name, body] of Object.entries(bodies)) {
        const input = JSON.parse(body);
        const started = performance.now();
        webhookPayloadInspector.run(input);
        print(`round ${round} ${build.name}: inspector run, ${name}: ${ms(performance.now() - started)}`);
      }
    }
  }
}

/** `toolrun args` of the build at `bin`; its stdout, or a rejection with its stderr. */
async function run(bin: string, args: readonly string[], env: Record<string, string>): Promise<string> {
  const result = await runToolrun(args, env, bin);
  if (result.code !== 0) throw new Error(`${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

function serve(bin: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, "serve"], {
      env: cleanEnv({ ...env, PORT: "0", LOG_LEVEL: "error" }),
    });
    let out = "";
    const onData = (d: Buffer) => {
      out += d;
      const match = /toolrun listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) done({ child, url: match[1] });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => fail(new Error(`serve exited with ${code}: ${out}`)));
  });
}

async function onServer(build: { name: string; dir: string }, round: number): Promise<void> {
  const bin = join(build.dir, "bin/toolrun.js");
  const dir = mkdtempSync(join(tmpdir(), "toolrun-fairness-"));
  const env = { TOOLRUN_DATABASE: join(dir, "toolrun.db") };
  try {
    await run(bin, ["migrate"], env);
    const admin = JSON.parse(await run(bin, ["admin-keys", "create", "--json"], env)) as { key: string };
    const { child, url } = await serve(bin, env);
    try {
      const [attacker, victim, ...others] = await createKeys(
        url,
        admin.key,
        2 + Number(values["flood-keys"]),
      );
      const label = `round ${round} ${build.name}`;
      if (!values["no-attack"]) await attackRun(url, attacker as string, victim as string, label);
      const spreadMs = Number(values["flood-ms"]);
      const slow = values["flood-body"] === "slow";
      const windowMs =
        values["flood-window-ms"] === undefined ? undefined : Number(values["flood-window-ms"]);
      const flooded = await flood(url, child.pid as number, others, Number(values.flood), {
        spreadMs,
        body: slow ? stripeManySignatures() : githubPushNear(),
        ...(windowMs !== undefined && { windowMs }),
      });
      const what = slow ? "slow calls (4,000 signatures, 1 MiB)" : "1 MiB pushes";
      print(
        `${label}: flood of ${values.flood} ${what} from ${others.length} keys over ${spreadMs} ms: RSS ${Math.round(flooded.rssBeforeMiB)} -> peak ${Math.round(flooded.rssPeakMiB)} MiB, ${Math.round(flooded.rssEndMiB)} MiB after ${ms(flooded.elapsedMs)}: ${JSON.stringify(flooded.answers)}`,
      );
    } finally {
      child.removeAllListeners("exit");
      child.kill("SIGTERM");
      await new Promise((done) => child.once("exit", done));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function attackRun(url: string, attacker: string, victim: string, label: string): Promise<void> {
  const hit = await attack(url, attacker, victim);
  print(
    `${label}: victim's plain 1 MiB call alone ${ms(hit.victimAlone.ms)} (${hit.victimAlone.status}), beside 6 slow calls of another key ${ms(hit.victimUnderAttack.ms)} (${hit.victimUnderAttack.status})`,
  );
  print(
    `${label}: the attacker's 6 calls: ${hit.attacker.map((a) => `${a.status}${a.code ? ` ${a.code}` : ""} in ${ms(a.ms)}`).join(", ")}`,
  );
}

print(`compute-fairness, ${new Date().toISOString()}, Node ${process.version}`);
if (values.inspector) await inspectorOnly();
else for (let round = 1; round <= rounds; round++) for (const build of builds) await onServer(build, round);
