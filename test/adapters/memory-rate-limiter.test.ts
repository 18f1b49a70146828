import { createMemoryRateLimiter } from "../../src/adapters/memory/rate-limiter.ts";
import { describeRateLimiterContract } from "../contracts/rate-limiter.contract.ts";

describeRateLimiterContract("memory", async () => {
  const limiter = createMemoryRateLimiter();
  return { limiter, cleanup: () => limiter.close() };
});
