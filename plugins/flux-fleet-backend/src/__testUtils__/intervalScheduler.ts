import {
  coreServices,
  createServiceFactory,
  type SchedulerServiceTaskInvocationDefinition,
  type SchedulerServiceTaskScheduleDefinition,
} from '@backstage/backend-plugin-api';
/** A duration given as `{ milliseconds, seconds, minutes }` (what the plugin's tasks use). */
function millisOf(value: unknown): number {
  const d = value as { milliseconds?: number; seconds?: number; minutes?: number };
  return (d.milliseconds ?? 0) + (d.seconds ?? 0) * 1000 + (d.minutes ?? 0) * 60_000;
}

/**
 * A scheduler that runs each task on a plain timer: after its initial delay, then every `frequency`, one run at
 * a time, until its signal aborts; `triggerTask` runs it at once. The test backend's mock scheduler runs tasks once at start-up only, and
 * Backstage's real one needs @backstage/backend-defaults, which plugin packages do not depend on.
 */
export const intervalSchedulerFactory = createServiceFactory({
  service: coreServices.scheduler,
  deps: {},
  factory() {
    const timers = new Set<NodeJS.Timeout>();
    const runs = new Map<string, () => Promise<void>>();
    const scheduleTask = async (
      task: SchedulerServiceTaskInvocationDefinition & SchedulerServiceTaskScheduleDefinition,
    ) => {
      const every = millisOf(task.frequency);
      const first = task.initialDelay ? millisOf(task.initialDelay) : 0;
      let running = false;
      const run = async () => {
        if (running || task.signal?.aborted) return;
        running = true;
        try {
          await task.fn(task.signal ?? new AbortController().signal);
        } catch {
          // a failing round is the task's to report; the next one runs anyway
        } finally {
          running = false;
        }
      };
      runs.set(task.id, run);
      const start = setTimeout(() => {
        run();
        const interval = setInterval(run, every);
        timers.add(interval);
        task.signal?.addEventListener('abort', () => clearInterval(interval));
      }, first);
      timers.add(start);
      task.signal?.addEventListener('abort', () => clearTimeout(start));
    };
    return {
      scheduleTask,
      createScheduledTaskRunner: (schedule: SchedulerServiceTaskScheduleDefinition) => ({
        run: (task: SchedulerServiceTaskInvocationDefinition) => scheduleTask({ ...schedule, ...task }),
      }),
      // runs the task now, unless a run of it is under way (Backstage's scheduler throws a ConflictError then)
      triggerTask: async (id: string) => {
        void runs.get(id)?.();
      },
      getScheduledTasks: async () => [],
    } as any;
  },
});
