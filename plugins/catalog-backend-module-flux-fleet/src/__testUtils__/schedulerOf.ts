import {
  coreServices,
  createBackendModule,
  SchedulerService,
} from '@backstage/backend-plugin-api';

/**
 * A test backend module that hands out a plugin's scheduler. The test backend's scheduler runs each task once at
 * startup and then only when a test triggers it, so tests decide when a collator or a provider runs again.
 */
export function schedulerOf(pluginId: string) {
  let scheduler: SchedulerService | undefined;
  const module = createBackendModule({
    pluginId,
    moduleId: 'test-scheduler-handle',
    register(env) {
      env.registerInit({
        deps: { s: coreServices.scheduler },
        async init({ s }) {
          scheduler = s;
        },
      });
    },
  });
  return {
    module,
    /** Runs a task now and waits for it to finish. */
    async trigger(taskId: string) {
      if (!scheduler) throw new Error(`the ${pluginId} plugin has not started`);
      await scheduler.triggerTask(taskId);
    },
  };
}
