import http from 'node:http';

/**
 * One request to a (simulated) Kubernetes API server, as kubectl sends it, with a bearer token; resolves with the
 * status code and the parsed body.
 */
export function kubeRequest(options: {
  server: string;
  token: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** Default `application/json`; PATCH uses `application/merge-patch+json`. */
  contentType?: string;
}): Promise<{ status: number; body: any }> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const contentType =
    options.contentType ??
    (options.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${options.server}${options.path}`,
      {
        method: options.method,
        headers: {
          Authorization: `Bearer ${options.token}`,
          Accept: 'application/json',
          ...(payload !== undefined && {
            'Content-Type': contentType,
            'Content-Length': Buffer.byteLength(payload),
          }),
        },
      },
      res => {
        const chunks: Buffer[] = [];
        res.on('data', chunk => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
