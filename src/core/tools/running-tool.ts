/**
 * Which tool's run the code executing now belongs to, carried through its timers and promises:
 * a failure nobody handled inside an operator's module (a rejected promise, a timer that throws)
 * reaches the process's handlers outside any call, and this is how their log line names the tool.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const running = new AsyncLocalStorage<string>();

/** Runs `run` (and whatever it schedules) as the tool `slug`'s code. */
export function asToolRun<T>(slug: string, run: () => T): T {
  return running.run(slug, run);
}

/** The slug of the tool whose run scheduled the code executing now; undefined outside any. */
export function runningTool(): string | undefined {
  return running.getStore();
}
