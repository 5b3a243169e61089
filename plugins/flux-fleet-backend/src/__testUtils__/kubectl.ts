import http from 'node:http';

/**
 * A merge patch as `kubectl patch --type merge` sends it, with a bearer token; resolves with the status code and
 * body.
 */
export function mergePatch(
  server: string,
  path: string,
  token: string,
  patch: unknown,
): Promise<{ status: number; body: any }> {
  const body = JSON.stringify(patch);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server}${path}`,
      {
        method: 'PATCH',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/merge-patch+json',
          'Content-Length': Buffer.byteLength(body),
          Accept: 'application/json',
        },
      },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Suspends a Kustomization of a simulated fleet through its cluster's API, as `flux suspend kustomization` does
 * (a merge patch of `spec.suspend`); fails unless the API server accepted it.
 */
export async function suspendKustomization(
  clusters: ReadonlyArray<{ name: string; server: string; adminToken: string }>,
  target: { ref: { cluster: string; namespace: string; name: string } },
): Promise<void> {
  const cluster = clusters.find(c => c.name === target.ref.cluster);
  if (!cluster) throw new Error(`no simulated cluster named '${target.ref.cluster}'`);
  const patched = await mergePatch(
    cluster.server,
    `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${target.ref.namespace}/kustomizations/${target.ref.name}`,
    cluster.adminToken,
    { spec: { suspend: true } },
  );
  if (patched.status !== 200) {
    throw new Error(`suspending ${target.ref.name} answered ${patched.status}: ${JSON.stringify(patched.body)}`);
  }
}
