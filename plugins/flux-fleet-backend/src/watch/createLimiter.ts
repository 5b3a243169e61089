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

/**
 * `limit`, with every task held until `opened` resolves (the backend has started: see the plugin). Tasks queued
 * meanwhile then start in the order they came, `limit`'s concurrency still applying.
 */
export function openingWhen(
  opened: Promise<void>,
  limit: <T>(task: () => Promise<T>) => Promise<T>,
): <T>(task: () => Promise<T>) => Promise<T> {
  return async task => {
    await opened;
    return limit(task);
  };
}
