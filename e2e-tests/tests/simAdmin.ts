import { simAdminUrl } from './fleetState';

/** Faults the fleet simulator can inject into one cluster (packages/fleet-sim README, admin API). */
export interface SimFaults {
  down: boolean;
  latencyMs: number;
  hang: boolean;
}

/**
 * Sets faults on one simulated cluster through the simulator's admin API; resolves once they are in effect
 * (a cluster set down has closed its port).
 */
export async function setFaults(
  cluster: string,
  faults: Partial<SimFaults>,
): Promise<void> {
  const url = `${simAdminUrl()}/clusters/${encodeURIComponent(cluster)}/faults`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (!response.ok) {
    throw new Error(
      `POST ${url} ${JSON.stringify(faults)} answered ${
        response.status
      }: ${await response.text()}`,
    );
  }
}
