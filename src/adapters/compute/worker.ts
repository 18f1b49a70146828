/**
 * The worker thread of the compute pool (pool.ts): builds the runner its module names once, then
 * answers each task with it, handing the outputs' JSON back without a copy.
 */
import { move, transferableSymbol, valueSymbol, workerData } from "piscina";
import type {
  ComputeAnswer,
  ComputeRunnerModule,
  ComputeTask,
  CreateComputeRunner,
} from "../../ports/compute-offload.ts";

const { module, options } = workerData as ComputeRunnerModule;
const createRunner = (await import(module)).default as CreateComputeRunner;
const runner = await createRunner(options);

export default function compute(
  task: ComputeTask,
): ComputeAnswer | ReturnType<typeof moved> | Promise<ComputeAnswer | ReturnType<typeof moved>> {
  const answer = runner(task);
  // A tool that waits (an operator's async computing tool) answers later.
  return "then" in answer ? answer.then(handedOver) : handedOver(answer);
}

function handedOver(answer: ComputeAnswer): ComputeAnswer | ReturnType<typeof moved> {
  return answer.kind === "ran" ? moved(answer) : answer;
}

/** The answer handed over with its buffer moved, not copied (piscina's transferable protocol). */
function moved(answer: Extract<ComputeAnswer, { kind: "ran" }>) {
  return move({
    get [transferableSymbol]() {
      return answer.bytes.buffer;
    },
    get [valueSymbol]() {
      return answer;
    },
  });
}
