import type { CoreDeps } from "../../core/call/deps.ts";
import { cancelJob, jobView, readJob } from "../../core/call/jobs.ts";
import {
  JOBS_LIMIT_DEFAULT,
  jobIdParameters,
  jobListParameters,
  jobListSchema,
  jobSchema,
  listJobs,
} from "../../core/contract/jobs.ts";
import { JSON_TYPE } from "../../core/kernel/endpoint.ts";
import { lazyInputValidator } from "../../core/kernel/validation.ts";
import type { JobStatus } from "../../ports/job-store.ts";
import { type HttpRoute, keyOf } from "../register.ts";
import { FREE, validArgs } from "./route-args.ts";

export function jobRoutes(deps: CoreDeps): HttpRoute[] {
  const checkId = lazyInputValidator(jobIdParameters);
  const checkList = lazyInputValidator(jobListParameters);
  return [
    {
      method: "GET",
      path: "/v1/jobs",
      operationId: "listJobs",
      summary: "List jobs",
      description: `This account's jobs, newest first, a page at a time; \`status\` keeps one status. Ended jobs are kept \`TOOLRUN_JOB_TTL_S\` (a day by default). ${FREE}`,
      tag: "Jobs",
      keyed: true,
      parameters: jobListParameters,
      answers: [{ status: 200, description: "Jobs", contentType: JSON_TYPE, schema: jobListSchema }],
      errors: ["validation_error"],
      handler: async (request) => {
        const args = validArgs(checkList, jobListParameters, request);
        const cursor = args.cursor as string | undefined;
        return listJobs(deps, keyOf(request), {
          limit: (args.limit as number | undefined) ?? JOBS_LIMIT_DEFAULT,
          cursor: cursor === undefined || cursor === "" ? null : cursor,
          status: args.status as JobStatus | undefined,
        });
      },
    },
    {
      method: "GET",
      path: "/v1/jobs/{id}",
      operationId: "getJob",
      summary: "Read a job",
      description: `The job's status and, once it ended, its \`result\` (the envelope a synchronous call answers) or \`problem\`. Any instance answers. Another account's job, or one purged, is 404 \`job_not_found\`. ${FREE}`,
      tag: "Jobs",
      keyed: true,
      parameters: jobIdParameters,
      answers: [{ status: 200, description: "The job", contentType: JSON_TYPE, schema: jobSchema }],
      errors: ["validation_error", "job_not_found"],
      handler: async (request) => {
        const { id } = validArgs(checkId, jobIdParameters, request) as { id: string };
        return jobView(await readJob(deps, keyOf(request).accountId, id));
      },
    },
    {
      method: "POST",
      path: "/v1/jobs/{id}/cancel",
      operationId: "cancelJob",
      summary: "Cancel a job",
      description: `A queued or running job ends \`canceled\` at once: its tool's signal fires and its credits are released (nothing charged). A job that ended, or whose charge is being made, is answered as it is. ${FREE}`,
      tag: "Jobs",
      keyed: true,
      parameters: jobIdParameters,
      answers: [{ status: 200, description: "The job after", contentType: JSON_TYPE, schema: jobSchema }],
      errors: ["validation_error", "job_not_found"],
      handler: async (request) => {
        const { id } = validArgs(checkId, jobIdParameters, request) as { id: string };
        return jobView(await cancelJob(deps, keyOf(request).accountId, id));
      },
    },
  ];
}
