/**
 * `startFleetSim`: generates a fleet (deterministic from the seed) and serves every cluster on its own port,
 * with churn, faults, a kubeconfig and the ground truth.
 */
import { startAdminServer } from './adminServer';
import { ScrapeTargets, type TargetGroup } from './capacity/scrapeTargets';
import {
  generateCluster,
  generateEmptyCluster,
  type GeneratedCluster,
} from './fleet/clusterGenerator';
import { planCluster } from './fleet/clusterPlan';
import {
  ALWAYS_DEPLOYED_SERVICE,
  clusterNames,
  servicePool,
} from './fleet/names';
import { writeKubeconfigFile } from './kubeconfig';
import {
  resolveOptions,
  type FleetSimOptions,
  type ResolvedOptions,
} from './options';
import { Random } from './random';
import { ClusterServer } from './server/clusterServer';
import { ClusterChurn } from './sim/churn';
import { NO_FAULTS, validateFaults, type FaultChange } from './sim/faults';
import { SimulatedCluster } from './sim/simulatedCluster';
import { generateTls } from './tls/certificates';
import { fleetTruth, type GroundTruth } from './truth/groundTruth';

/** One simulated cluster, as clients reach it. */
export interface SimCluster {
  name: string;
  /** e.g. `http://127.0.0.1:41234` */
  server: string;
  /** e.g. `v2.8.3` */
  fluxVersion: string;
  adminToken: string;
  readOnlyToken: string;
  /** Base64 PEM of the CA, for `tls: true`. */
  caData?: string;
}

/** A running simulated fleet. */
export interface FleetSim {
  clusters: SimCluster[];
  /** The ground truth now (reflects churn and API writes). */
  truth(): GroundTruth;
  /** Switches faults of a cluster; resolves when they are in effect (a `down` listener is closed). */
  setFault(cluster: string, fault: FaultChange): Promise<void>;
  writeKubeconfig(file: string): void;
  /** The admin HTTP API of this process (faults, truth). */
  adminUrl: string;
  /** The controller pods' local scrape targets (`file_sd` groups); empty unless scrape ports are served. */
  scrapeTargets(): TargetGroup[];
  /** Stops every listener and timer. */
  close(): Promise<void>;
}

/** Generates the clusters of a fleet (no servers). Exported for benchmarks and tests. */
export function generateFleet(options: ResolvedOptions): GeneratedCluster[] {
  const names = clusterNames(options.clusters);
  const common = {
    epoch: options.epoch,
    watchWindow: options.watchWindow,
    seed: options.seed,
  };
  if (options.empty)
    return names.map(name => generateEmptyCluster(name, common));
  const random = new Random(options.seed);
  const pool = servicePool(
    Math.max(options.services, Math.round(options.services * 1.5)),
    random.fork('service-pool'),
  );
  const checkout = pool.find(s => s.name === ALWAYS_DEPLOYED_SERVICE)!;
  const others = pool.filter(s => s !== checkout);
  return names.map((name, index) => {
    const clusterRandom = random.fork(`cluster-${index}`);
    const services = [
      checkout,
      ...clusterRandom.shuffle(others).slice(0, options.services - 1),
    ];
    const plan = planCluster(index, name, services, clusterRandom);
    return generateCluster(plan, clusterRandom, common);
  });
}

/** Generates a fleet and starts serving it. */
export async function startFleetSim(
  input: FleetSimOptions = {},
): Promise<FleetSim> {
  const options = resolveOptions(input);
  const tls = options.tls ? await generateTls([options.host]) : undefined;
  const caData = tls ? Buffer.from(tls.ca).toString('base64') : undefined;
  const generated = generateFleet(options);
  const timing = {
    minDelayMs: options.reactionDelayMs[0],
    maxDelayMs: options.reactionDelayMs[1],
  };
  const clusters = generated.map(g => new SimulatedCluster(g, timing));
  const servers = clusters.map(
    (cluster, i) =>
      new ClusterServer(cluster, {
        host: options.host,
        port: options.port === 0 ? 0 : options.port + i,
        bookmarkIntervalMs: options.bookmarkIntervalMs,
        tls,
      }),
  );
  const byName = new Map(servers.map(s => [s.cluster.name, s]));
  try {
    for (const server of servers) await server.listen();
  } catch (error) {
    await Promise.all(servers.map(s => s.stop()));
    throw new Error(
      `fleet-sim could not listen on ${options.host}: ${
        (error as Error).message
      }`,
    );
  }

  const simClusters: SimCluster[] = servers.map(s => ({
    name: s.cluster.name,
    server: s.url,
    fluxVersion: s.cluster.fluxVersion,
    adminToken: s.cluster.adminToken,
    readOnlyToken: s.cluster.readOnlyToken,
    ...(caData ? { caData } : {}),
  }));

  const truth = (): GroundTruth =>
    fleetTruth(
      servers.map(s => ({
        name: s.cluster.name,
        server: s.url,
        fluxVersion: s.cluster.fluxVersion,
        records: s.cluster.records,
        malformed: s.cluster.malformed,
        controllers: s.cluster.controlPlane.all(),
        loads: s.cluster.metrics.loads(),
      })),
      Date.now(),
    );

  const setFault = async (
    cluster: string,
    fault: FaultChange,
  ): Promise<void> => {
    const server = byName.get(cluster);
    if (!server) {
      throw new Error(
        `no cluster named ${cluster}; clusters: ${[...byName.keys()].join(
          ', ',
        )}`,
      );
    }
    await server.applyFaults(validateFaults(fault));
  };

  // Churn: status changes per second per cluster, spread over 10 ticks a second.
  let churnTimer: NodeJS.Timeout | undefined;
  if (options.churnPerSecond > 0) {
    const churns = clusters.map(c => new ClusterChurn(c));
    const debt = clusters.map(() => 0);
    churnTimer = setInterval(() => {
      churns.forEach((churn, i) => {
        debt[i] += options.churnPerSecond / 10;
        while (debt[i] >= 1) {
          debt[i] -= 1;
          if (!churn.step()) debt[i] = 0;
        }
      });
    }, 100);
    churnTimer.unref();
  }

  const scrape = options.scrapePorts
    ? new ScrapeTargets(clusters, options.host, options.prometheusTargets)
    : undefined;
  await scrape?.start();
  const scrapeTargets = () => scrape?.groups() ?? [];

  const admin = await startAdminServer(
    {
      truth,
      targets: scrapeTargets,
      clusters: () =>
        servers.map(s => ({
          name: s.cluster.name,
          server: s.url,
          fluxVersion: s.cluster.fluxVersion,
          faults: { ...NO_FAULTS, ...s.cluster.faults },
          fluxObjects: s.cluster.records.size,
          objects: s.cluster.store.counts(),
          resourceVersion: s.cluster.store.resourceVersion,
          requests: s.requests.snapshot(),
          metricsBytesServed: s.cluster.metrics.bytesServed(),
        })),
      hasCluster: name => byName.has(name),
      setFault,
    },
    options.host,
    options.port === 0 ? 0 : options.port + clusters.length,
  );

  let closed = false;
  return {
    clusters: simClusters,
    truth,
    setFault,
    writeKubeconfig: file => writeKubeconfigFile(file, simClusters),
    adminUrl: admin.url,
    scrapeTargets,
    close: async () => {
      if (closed) return;
      closed = true;
      if (churnTimer) clearInterval(churnTimer);
      await scrape?.close();
      for (const cluster of clusters) cluster.close();
      await Promise.all(servers.map(s => s.stop()));
      await admin.close();
    },
  };
}
