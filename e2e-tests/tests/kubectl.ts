import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { kubeconfigPath } from './fleetState';

const run = promisify(execFile);

/** The real kubectl (Debian's), or the one `KUBECTL` names. */
const KUBECTL = process.env.KUBECTL ?? 'kubectl';

/**
 * Runs the real kubectl against one simulated cluster with its admin context, as an operator would; rejects with
 * kubectl's own error output.
 */
export async function kubectl(
  cluster: string,
  ...args: string[]
): Promise<string> {
  const argv = [
    '--kubeconfig',
    kubeconfigPath(),
    '--context',
    cluster,
    ...args,
  ];
  try {
    const { stdout } = await run(KUBECTL, argv, { timeout: 30_000 });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(
      `kubectl ${argv.join(' ')} failed: ${e.stderr?.trim() || e.message}`,
    );
  }
}
