/**
 * Runs at most `concurrency` tasks at a time; the others wait in order. Used so the initial lists of a cluster
 * do not all hit its API server at once.
 */
export function createLimiter(
  concurrency: number,
): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) {
      await new Promise<void>(resolve => waiting.push(resolve));
    }
    running++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
