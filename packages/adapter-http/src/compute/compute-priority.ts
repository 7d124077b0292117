/**
 * The compute pool's threads yield the CPU to the event loop (docs/decisions/tenancy.md).
 * Each worker thread raises its own niceness by COMPUTE_THREAD_NICENESS when it
 * starts, so on a busy machine the thread that serves every client's requests runs
 * first, and a heavy client's computations take what is left. Linux lets one thread
 * of a process have its own niceness (`setpriority` on the thread id, read from
 * /proc/thread-self); elsewhere the threads keep the process's priority.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much lower than the process each compute thread runs (niceness added, at most 19). */
export const COMPUTE_THREAD_NICENESS = 10;

/** This thread's id, where the system names threads (/proc/thread-self on Linux); else undefined. */
export const currentThreadId = (): number | undefined => {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
};

/** Lower the calling thread's priority by COMPUTE_THREAD_NICENESS; the niceness it now has, or undefined where threads cannot be told apart. Only for worker threads. */
export const yieldToTheEventLoop = (): number | undefined => {
  const tid = currentThreadId();
  if (tid === undefined) return undefined;
  const niceness = Math.min(19, getPriority(tid) + COMPUTE_THREAD_NICENESS);
  setPriority(tid, niceness);
  return niceness;
};
