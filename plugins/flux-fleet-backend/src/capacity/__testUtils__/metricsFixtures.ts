/**
 * Exposition texts as a Flux controller serves them (controller-runtime, client-go and process metrics), built
 * from a few numbers so tests know the rates they should measure.
 */
export interface ControllerCounters {
  /** Controller-runtime controllers of the process (source-controller has several). */
  controllers?: string[];
  reconciles: number;
  errors?: number;
  /** Cumulative reconcile-time bucket counts for le 0.5, 1, 2, +Inf. */
  timeBuckets?: [number, number, number, number];
  timeSum?: number;
  /** Cumulative queue-wait bucket counts for le 0.01, 0.1, 1, +Inf. */
  waitBuckets?: [number, number, number, number];
  depth?: number;
  requests?: number;
  throttled?: number;
  cpuSeconds?: number;
  memoryBytes?: number | string;
  workers?: number;
  activeWorkers?: number;
}

export function exposition(v: ControllerCounters): string {
  const lines: string[] = [];
  const controllers = v.controllers ?? ['kustomization'];
  const time = v.timeBuckets ?? [0, 0, 0, 0];
  const wait = v.waitBuckets ?? [0, 0, 0, 0];
  lines.push(
    '# HELP controller_runtime_reconcile_total Total number of reconciliations per controller',
  );
  lines.push('# TYPE controller_runtime_reconcile_total counter');
  for (const c of controllers) {
    lines.push(
      `controller_runtime_reconcile_total{controller="${c}",result="success"} ${v.reconciles}`,
    );
    lines.push(
      `controller_runtime_reconcile_total{controller="${c}",result="error"} 0`,
    );
  }
  lines.push('# TYPE controller_runtime_reconcile_errors_total counter');
  for (const c of controllers)
    lines.push(
      `controller_runtime_reconcile_errors_total{controller="${c}"} ${
        v.errors ?? 0
      }`,
    );
  lines.push('# TYPE controller_runtime_reconcile_time_seconds histogram');
  for (const c of controllers) {
    ['0.5', '1', '2', '+Inf'].forEach((le, i) =>
      lines.push(
        `controller_runtime_reconcile_time_seconds_bucket{controller="${c}",le="${le}"} ${time[i]}`,
      ),
    );
    lines.push(
      `controller_runtime_reconcile_time_seconds_sum{controller="${c}"} ${
        v.timeSum ?? 0
      }`,
    );
    lines.push(
      `controller_runtime_reconcile_time_seconds_count{controller="${c}"} ${time[3]}`,
    );
  }
  lines.push('# TYPE controller_runtime_max_concurrent_reconciles gauge');
  for (const c of controllers)
    lines.push(
      `controller_runtime_max_concurrent_reconciles{controller="${c}"} ${
        v.workers ?? 4
      }`,
    );
  lines.push('# TYPE controller_runtime_active_workers gauge');
  for (const c of controllers)
    lines.push(
      `controller_runtime_active_workers{controller="${c}"} ${
        v.activeWorkers ?? 1
      }`,
    );
  lines.push('# TYPE workqueue_depth gauge');
  for (const c of controllers)
    lines.push(
      `workqueue_depth{controller="${c}",name="${c}"} ${v.depth ?? 0}`,
    );
  lines.push('# TYPE workqueue_adds_total counter');
  for (const c of controllers)
    lines.push(
      `workqueue_adds_total{controller="${c}",name="${c}"} ${v.reconciles}`,
    );
  lines.push('# TYPE workqueue_queue_duration_seconds histogram');
  for (const c of controllers) {
    ['0.01', '0.1', '1', '+Inf'].forEach((le, i) =>
      lines.push(
        `workqueue_queue_duration_seconds_bucket{controller="${c}",name="${c}",le="${le}"} ${wait[i]}`,
      ),
    );
    lines.push(
      `workqueue_queue_duration_seconds_sum{controller="${c}",name="${c}"} 0`,
    );
    lines.push(
      `workqueue_queue_duration_seconds_count{controller="${c}",name="${c}"} ${wait[3]}`,
    );
  }
  lines.push('# TYPE rest_client_requests_total counter');
  lines.push(
    `rest_client_requests_total{code="200",host="10.0.0.1:443",method="GET"} ${
      v.requests ?? 0
    }`,
  );
  lines.push(
    `rest_client_requests_total{code="429",host="10.0.0.1:443",method="GET"} ${
      v.throttled ?? 0
    }`,
  );
  lines.push('# TYPE process_cpu_seconds_total counter');
  lines.push(`process_cpu_seconds_total ${v.cpuSeconds ?? 0}`);
  lines.push('# TYPE process_resident_memory_bytes gauge');
  lines.push(`process_resident_memory_bytes ${v.memoryBytes ?? 104857600}`);
  return `${lines.join('\n')}\n`;
}
