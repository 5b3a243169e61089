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
