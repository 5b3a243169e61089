import { setTimeout as wait } from 'node:timers/promises';

/**
 * Waits `ms`, or until `signal` aborts, whichever comes first; resolves either way (the caller checks whether it
 * was stopped). An already aborted signal does not wait at all.
 */
export async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await wait(ms, undefined, { signal });
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}
