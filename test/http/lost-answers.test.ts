/**
 * When an answer counts as lost (its client closed the connection before it was written whole),
 * checked on a stand-in for the response: the connection's own behaviour is the request log's
 * test (test/http/request-log.test.ts).
 */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { describe, it } from "node:test";
import type { FastifyReply, FastifyRequest } from "fastify";
import { watchForLostAnswer } from "../../src/http/lost-answers.ts";

interface ResponseState {
  destroyed: boolean;
  writableFinished: boolean;
  errored: Error | null;
}

function response(state: Partial<ResponseState> = {}) {
  const initial: ResponseState = { destroyed: false, writableFinished: false, errored: null, ...state };
  const raw = Object.assign(new EventEmitter(), initial);
  return { raw, reply: { raw } as unknown as FastifyReply };
}

const request = {} as FastifyRequest;
const large = Buffer.alloc(64 * 1024);

describe("lost answers", () => {
  it("reports an answer whose connection closed before it was written", () => {
    const { reply } = response({ destroyed: true });
    let reports = 0;
    watchForLostAnswer(request, reply, "{}", () => reports++);
    assert.equal(reports, 1);
  });

  it("reports a large answer whose connection closes before it has all left, and only that", () => {
    const cut = response();
    const whole = response();
    const failed = response();
    const reported: string[] = [];
    watchForLostAnswer(request, cut.reply, large, () => reported.push("cut"));
    watchForLostAnswer(request, whole.reply, large, () => reported.push("whole"));
    watchForLostAnswer(request, failed.reply, large, () => reported.push("failed"));
    whole.raw.writableFinished = true;
    // Fastify has written the line of a response that failed.
    failed.raw.errored = new Error("EPIPE");
    for (const { raw } of [cut, whole, failed]) raw.emit("close");
    assert.deepEqual(reported, ["cut"]);
  });

  it("leaves a small or empty answer on a live connection to Fastify, and listens for the close of a stream", () => {
    const { raw, reply } = response();
    watchForLostAnswer(request, reply, "{}", () => assert.fail("reported"));
    assert.equal(raw.listenerCount("close"), 0);
    const empty = response();
    watchForLostAnswer(request, empty.reply, null, () => assert.fail("reported"));
    assert.equal(empty.raw.listenerCount("close"), 0);
    const streamed = response();
    watchForLostAnswer(request, streamed.reply, new EventEmitter(), () => {});
    assert.equal(streamed.raw.listenerCount("close"), 1);
  });
});
