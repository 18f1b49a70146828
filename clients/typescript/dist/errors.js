/** A problem document the service answered with, by its `code`. */
export class ToolrunError extends Error {
    name = "ToolrunError";
    code;
    status;
    problem;
    constructor(problem) {
        super(`${problem.code}: ${problem.detail ?? problem.title}`);
        this.code = problem.code;
        this.status = problem.status;
        this.problem = problem;
    }
}
/**
 * No answer within the call's `timeoutMs` (its retries and the waits between them included). A
 * tool call may still have run and been charged: sent again with the same `idempotencyKey`, it
 * gets that call's answer instead of running twice.
 */
export class ToolrunTimeoutError extends Error {
    name = "ToolrunTimeoutError";
    timeoutMs;
    constructor(timeoutMs) {
        super(`No answer within ${timeoutMs} ms. A tool call may have run: send it again with the same idempotencyKey to get its answer without paying twice.`);
        this.timeoutMs = timeoutMs;
    }
}
