// @ts-check
/**
 * A run of a tool as a job, on its page: the call answered 202 at once is followed by reading
 * `GET /v1/jobs/{id}` until the job ends, first after the `Retry-After` the service gave, then
 * less and less often (each read takes a rate-limit slot: the free plan has 60 a minute).
 * `Cancel the job` ends it canceled, charging nothing.
 */
import { callApi } from "./api.js";
import { byId } from "./dom.js";

/** The longest wait between two reads of a job, in seconds, when the service names none. */
const LONGEST_WAIT_S = 5;

/**
 * How a job ended, for the page: its result (the 200 envelope), its problem, canceled, or a
 * problem reading it (`unread`: 404, 401, ...).
 * @typedef {{ status: "succeeded", result: Record<string, unknown> }
 *   | { status: "failed", problem: import("./api.js").Problem }
 *   | { status: "canceled" }
 *   | { status: "unread", problem: import("./api.js").Problem }} JobEnd
 */

/** @param {Record<string, unknown>} job @returns {JobEnd | null} */
function endOf(job) {
  if (job.status === "succeeded" && job.result && typeof job.result === "object")
    return { status: "succeeded", result: /** @type {Record<string, unknown>} */ (job.result) };
  if (job.status === "failed")
    return {
      status: "failed",
      problem:
        job.problem && typeof job.problem === "object"
          ? /** @type {import("./api.js").Problem} */ (job.problem)
          : { code: "processing_error", title: "The job failed" },
    };
  if (job.status === "canceled") return { status: "canceled" };
  return null;
}

/** "14:03:27" in the user's time zone, from an ISO timestamp. @param {unknown} at */
function clock(at) {
  if (typeof at !== "string") return "";
  return new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** The job's status in words. @param {Record<string, unknown>} job */
function statusWords(job) {
  switch (job.status) {
    case "queued":
      return `Queued since ${clock(job.created_at)}`;
    case "running":
      return `Running since ${clock(job.started_at ?? job.created_at)}`;
    case "succeeded":
      return `Succeeded at ${clock(job.finished_at)}`;
    case "failed":
      return `Failed at ${clock(job.finished_at)}`;
    case "canceled":
      return `Canceled at ${clock(job.finished_at)}: nothing was charged`;
    default:
      return String(job.status);
  }
}

/**
 * Shows the job in the page's job panel and follows it until it ends; its Cancel button is offered
 * meanwhile. Status changes are told through `announce` (the page's status line).
 * @param {Record<string, unknown>} job the 202's body
 * @param {number | null} retryAfter the 202's `Retry-After`, seconds
 * @param {string} key
 * @param {(text: string) => void} announce
 * @returns {Promise<JobEnd>}
 */
export async function followJob(job, retryAfter, key, announce) {
  const panel = byId("job", HTMLElement);
  const statusText = byId("job-status", HTMLElement);
  const cancelButton = byId("job-cancel", HTMLButtonElement);
  const id = String(job.id);
  const path = `/v1/jobs/${encodeURIComponent(id)}`;
  byId("job-id", HTMLElement).textContent = id;
  let latest = job;
  let shown = "";
  const show = () => {
    statusText.textContent = statusWords(latest);
    // Said once a status, not at each read.
    const status = String(latest.status);
    if (status === shown) return;
    shown = status;
    if (status === "queued" || status === "running") announce(`Job ${status}…`);
  };
  /** Ends the current wait at once (the job was canceled). */
  let wake = () => {};
  const cancel = async () => {
    cancelButton.disabled = true;
    announce("Canceling the job…");
    const answer = await callApi("POST", `${path}/cancel`, key);
    if (!answer.ok) {
      cancelButton.disabled = false;
      announce(`The job was not canceled: ${answer.problem.title ?? answer.problem.code ?? "error"}.`);
      return;
    }
    // A job whose charge is being made is answered as it is, still running: it ends on its own.
    if (endOf(latest) === null) latest = answer.data;
    show();
    wake();
  };
  cancelButton.addEventListener("click", cancel);
  cancelButton.disabled = false;
  cancelButton.hidden = false;
  panel.hidden = false;
  show();
  try {
    let wait = retryAfter ?? 1;
    for (;;) {
      const ended = endOf(latest);
      if (ended) return ended;
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, wait * 1000);
        wake = () => {
          clearTimeout(timer);
          resolve(undefined);
        };
      });
      if (endOf(latest)) continue;
      const read = await callApi("GET", path, key);
      if (read.ok) {
        // A cancel answered meanwhile has the last word.
        if (endOf(latest) === null) latest = read.data;
        show();
        wait = read.retryAfter ?? Math.min(wait * 1.5, LONGEST_WAIT_S);
      } else if (typeof read.problem.retry_after === "number") {
        // Rate limited (or the service busy): read again when it says.
        wait = Math.max(read.problem.retry_after, 1);
      } else if (read.problem.code === "network_error") {
        wait = LONGEST_WAIT_S;
      } else {
        return { status: "unread", problem: read.problem };
      }
    }
  } finally {
    cancelButton.removeEventListener("click", cancel);
    cancelButton.hidden = true;
  }
}

/** Hides the job panel of an earlier run (a tool that never runs as a job has none). */
export function hideJob() {
  const panel = document.getElementById("job");
  if (panel) panel.hidden = true;
}
