/**
 * Where the tests find PostgreSQL and Redis. Without the variable a suite is skipped with a
 * message naming it; in CI (`CI` set) a missing variable fails the run instead, so a broken CI
 * setup can never pass by skipping the scale-out tests.
 */

export type ServiceUrl =
  | { readonly url: string; readonly skip: false }
  | { readonly url: undefined; readonly skip: string };

function serviceUrl(variable: string, example: string): ServiceUrl {
  const url = process.env[variable];
  if (url) return { url, skip: false };
  if (process.env.CI) {
    throw new Error(`${variable} must be set in CI (for example ${variable}=${example})`);
  }
  return { url: undefined, skip: `set ${variable} to run (for example ${example})` };
}

export function testDatabaseUrl(): ServiceUrl {
  return serviceUrl("TOOLRUN_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test");
}

export function testRedisUrl(): ServiceUrl {
  return serviceUrl("TOOLRUN_TEST_REDIS_URL", "redis://127.0.0.1:6379");
}

/** A name no other run uses, valid as a PostgreSQL schema and inside a Redis key. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
}
