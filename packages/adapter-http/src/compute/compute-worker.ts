/**
 * The worker side of the compute pool (compute-pool.ts): runs one of core's
 * pure computations on the data it is sent and answers its `Either`, as plain
 * data. Loaded by piscina in each worker thread; nothing else runs here.
 */
import { inThreadComputations, inThreadSandboxComputations } from '@debtkit/core';
import type { ComputeTask } from './compute-pool.js';
import { yieldToTheEventLoop } from './compute-priority.js';

// This thread runs below the event loop's priority (compute-priority.ts).
yieldToTheEventLoop();

export default function runComputation(task: ComputeTask): Promise<unknown> {
  switch (task.kind) {
    case 'planPayoff':
      return inThreadComputations.planPayoff(task.input);
    case 'comparePayoffStrategies':
      return inThreadComputations.comparePayoffStrategies(task.input, task.accounts);
    case 'creditOutlook':
      return inThreadComputations.creditOutlook(task.input);
    case 'sandboxMonth':
      return inThreadSandboxComputations.sandboxMonth(task.input);
  }
}
