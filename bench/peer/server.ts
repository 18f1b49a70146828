/**
 * The bench's peer: the calculator's call written the conventional way, for comparison with toolrun
 * in the same run. Fastify with the tool's JSON Schema as the route's body schema, a bearer key
 * looked up by its SHA-256 hash on every request, @fastify/rate-limit keyed by the API key (in
 * process on SQLite, in Redis through ioredis on PostgreSQL), then the pure compute and one
 * transaction that charges the credit and records the usage row; the same envelope as toolrun's,
 * RFC 9457 problem documents for 401, 402, 422 and 429, and Fastify's request log at LOG_LEVEL
 * through pino's asynchronous destination (as toolrun writes its own).
 *
 * Usage: node bench/peer/server.ts (--sqlite FILE | --postgres URL --redis URL) [--port N]
 * Environment: PEER_KEYS, comma-separated secrets seeded with PEER_CREDITS credits each (default
 * 1,000,000,000) and PEER_RPM requests a minute (default 100,000,000, lifted out of the way as
 * the bench lifts toolrun's); LOG_LEVEL (default info). Prints "peer listening on URL".
 */
import { createHash, randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import rateLimit from "@fastify/rate-limit";
import { Ajv2020 } from "ajv/dist/2020.js";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { Redis } from "ioredis";
import pino from "pino";
import { retainingWallPressureCalculator as calculator } from "../../src/tools/retaining-wall-pressure-calculator/index.ts";
import type { RetainingWallInput } from "../../src/tools/retaining-wall-pressure-calculator/schema.ts";
import { type PeerKey, type PeerLedger, postgresLedger, sqliteLedger } from "./ledger.ts";

const { values } = parseArgs({
  options: {
    sqlite: { type: "string" },
    postgres: { type: "string" },
    redis: { type: "string" },
    port: { type: "string", default: "0" },
  },
});
const secrets = (process.env.PEER_KEYS ?? "").split(",").filter((s) => s !== "");
if (secrets.length === 0) throw new Error("PEER_KEYS names no key");
const CREDITS = Number(process.env.PEER_CREDITS ?? 1_000_000_000);
const RPM = Number(process.env.PEER_RPM ?? 100_000_000);
const COST = 1;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
let ledger: PeerLedger;
let redis: Redis | undefined;
if (values.sqlite) ledger = sqliteLedger(values.sqlite);
else if (values.postgres && values.redis) {
  ledger = postgresLedger(values.postgres, 10);
  redis = new Redis(values.redis);
} else throw new Error("give --sqlite FILE, or --postgres URL and --redis URL");
await ledger.seed(secrets.map(sha256), CREDITS, RPM);

declare module "fastify" {
  interface FastifyRequest {
    peerKey: PeerKey;
  }
}

const problem = (reply: FastifyReply, status: number, code: string, detail: string) =>
  reply.code(status).type("application/problem+json").send({ type: "about:blank", status, code, detail });

const app = Fastify({
  logger: {
    level: process.env.LOG_LEVEL ?? "info",
    stream: pino.destination({ dest: 1, sync: false, minLength: 8192 }),
  },
});
// The tool's schema is JSON Schema 2020-12, which Fastify's default (draft-07) Ajv does not read.
const ajv = new Ajv2020({ allErrors: true, strict: false });
app.setValidatorCompiler(({ schema }) => ajv.compile(schema));

app.decorateRequest("peerKey", null as unknown as PeerKey);
app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
  const header = request.headers.authorization;
  const secret = header?.startsWith("Bearer ") ? header.slice(7) : undefined;
  const key = secret === undefined ? undefined : await ledger.findKey(sha256(secret));
  if (key === undefined) return problem(reply, 401, "invalid_api_key", "A valid API key is required.");
  request.peerKey = key;
});
await app.register(rateLimit, {
  hook: "preHandler",
  timeWindow: 60_000,
  max: (request) => request.peerKey.rpm,
  keyGenerator: (request) => request.peerKey.id,
  ...(redis ? { redis, nameSpace: `peer-${process.pid}-` } : {}),
  errorResponseBuilder: (_request, context) => ({
    statusCode: 429,
    type: "about:blank",
    status: 429,
    code: "rate_limited",
    detail: `At most ${context.max} requests a minute; retry in ${context.after}.`,
  }),
});
app.setErrorHandler(
  (error: { statusCode?: number; validation?: unknown; message: string }, _request, reply) => {
    if (error.validation) return problem(reply, 400, "validation_error", error.message);
    if (error.statusCode === 429) return reply.code(429).type("application/problem+json").send(error);
    app.log.error(error);
    return problem(reply, 500, "internal_error", "The call failed.");
  },
);

app.post(
  `/v1/tool/${calculator.slug}`,
  { schema: { body: calculator.inputSchema } },
  async (request, reply) => {
    let outputs: Record<string, unknown>;
    try {
      outputs = calculator.run(request.body as RetainingWallInput);
    } catch (error) {
      return problem(
        reply,
        422,
        "unprocessable_input",
        error instanceof Error ? error.message : String(error),
      );
    }
    const requestId = `req_${randomBytes(15).toString("base64url")}`;
    const remaining = await ledger.charge({
      keyId: request.peerKey.id,
      tool: calculator.slug,
      credits: COST,
      requestId,
    });
    if (remaining === null)
      return problem(reply, 402, "insufficient_credits", `This call costs ${COST} credit.`);
    return {
      tool: calculator.slug,
      tool_version: calculator.version,
      outputs,
      credits_used: COST,
      credits_remaining: remaining,
      request_id: requestId,
    };
  },
);
// The accounting the bench checks: credits used by the key from its balance row and from its usage rows.
app.get("/v1/me/credits", async (request) => ({
  credits_used: (await ledger.used(request.peerKey.id)).balance,
}));
app.get("/v1/me/usage", async (request) => ({ credits_used: (await ledger.used(request.peerKey.id)).usage }));

const address = await app.listen({ host: "127.0.0.1", port: Number(values.port) });
process.stdout.write(`peer listening on ${address}\n`);

const stop = () => {
  app
    .close()
    .then(() => Promise.all([ledger.close(), redis?.quit()]))
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
