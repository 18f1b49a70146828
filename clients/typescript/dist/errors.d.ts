/** The errors the client throws: the service's problem documents by `code`, and its own timeout. */
import type { components } from "./schema.js";
export type Problem = components["schemas"]["Problem"];
export type ErrorCode = Problem["code"];
/** A problem document the service answered with, by its `code`. */
export declare class ToolrunError extends Error {
    readonly name = "ToolrunError";
    readonly code: ErrorCode;
    readonly status: number;
    readonly problem: Problem;
    constructor(problem: Problem);
}
/**
 * No answer within the call's `timeoutMs` (its retries and the waits between them included). A
 * tool call may still have run and been charged: sent again with the same `idempotencyKey`, it
 * gets that call's answer instead of running twice.
 */
export declare class ToolrunTimeoutError extends Error {
    readonly name = "ToolrunTimeoutError";
    readonly timeoutMs: number;
    constructor(timeoutMs: number);
}
