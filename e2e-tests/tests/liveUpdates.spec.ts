import { expect, test } from '@playwright/test';
import { EntityCard } from './entityCard';
import { expectedState } from './expectedWords';
import { objectKey, readTruth, TruthObject } from './groundTruth';
import { signIn } from './helpers';
import { kubectl } from './kubectl';

// How long a change made in a cluster may take to reach an open card: watch event, index, coalesced signal
// (200 ms), re-fetch. The backend's own tests hold it to about a second; this leaves room for a busy machine.
const SHOWN_WITHIN_MS = 15_000;

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

/** The object's reconcile state in the truth now. */
async function truthOf(o: TruthObject): Promise<TruthObject> {
  const now = (await readTruth()).objects.find(
    x => objectKey(x) === objectKey(o),
  );
  if (!now) throw new Error(`${objectKey(o)} is no longer in the ground truth`);
  return now;
}

/** Waits until the card shows the state the truth gives the object, and returns that truth. */
async function expectCardFollowsTruth(
  card: EntityCard,
  o: TruthObject,
  check?: (truth: TruthObject) => void,
): Promise<void> {
  await expect(async () => {
    const truth = await truthOf(o);
    check?.(truth);
    expect((await card.read(o)).state).toMatch(
      new RegExp(`^${expectedState(truth)}`),
    );
  }).toPass({ timeout: SHOWN_WITHIN_MS });
}

test('a Kustomization suspended with kubectl shows as suspended on the open card, and resumed again', async ({
  page,
}) => {
  const truth = await readTruth();
  const target = truth.objects.find(
    o =>
      o.service === 'checkout' &&
      o.kind === 'Kustomization' &&
      o.state !== 'suspended',
  );
  if (!target)
    throw new Error(
      'no Kustomization of checkout to suspend in the ground truth',
    );
  const card = new EntityCard(page);
  await card.open('default/component/checkout');
  await expectCardFollowsTruth(card, target);

  const patch = (suspend: boolean) =>
    kubectl(
      target.cluster,
      'patch',
      'kustomization',
      target.name,
      '-n',
      target.namespace,
      '--type',
      'merge',
      '-p',
      JSON.stringify({ spec: { suspend } }),
    );
  try {
    await patch(true);
    await expectCardFollowsTruth(card, target, now =>
      expect(now.state, 'the truth after kubectl suspended it').toBe(
        'suspended',
      ),
    );
  } finally {
    await patch(false);
  }
  await expectCardFollowsTruth(card, target, now =>
    expect(now.state, 'the truth after kubectl resumed it').not.toBe(
      'suspended',
    ),
  );
});

test('a status written with kubectl shows on the open card, with its reason and message', async ({
  page,
}) => {
  // An object with a deliberate problem: the simulator never churns those, so nothing but this test writes its
  // status while it runs.
  const service = 'fulfillment-scheduler';
  const target = (await readTruth()).objects.find(
    o =>
      o.service === service && o.kind === 'Kustomization' && o.owner !== 'ok',
  );
  if (!target)
    throw new Error(
      `no Kustomization of ${service} with an owner problem in the ground truth`,
    );
  const card = new EntityCard(page);
  await card.open(`default/component/${service}`);
  await expectCardFollowsTruth(card, target);

  const get = JSON.parse(
    await kubectl(
      target.cluster,
      'get',
      'kustomization',
      target.name,
      '-n',
      target.namespace,
      '-o',
      'json',
    ),
  );
  const message = `health check failed after 30s: written by the end-to-end test at ${new Date().toISOString()}`;
  const patchStatus = (status: unknown) =>
    kubectl(
      target.cluster,
      'patch',
      'kustomization',
      target.name,
      '-n',
      target.namespace,
      '--subresource',
      'status',
      '--type',
      'merge',
      '-p',
      JSON.stringify({ status }),
    );
  try {
    await patchStatus({
      observedGeneration: get.metadata.generation,
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'HealthCheckFailed',
          message,
          lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          observedGeneration: get.metadata.generation,
        },
      ],
    });
    await expectCardFollowsTruth(card, target, now =>
      expect(now.state, 'the truth after kubectl wrote the status').toBe(
        'failed',
      ),
    );
    const state = card.object(target).getByTestId('flux-fleet-state');
    await expect(state).toContainText('HealthCheckFailed');
    await expect(state).toContainText(message);
  } finally {
    // A merge patch: null removes a status the object had none of; otherwise the old status is written back, and
    // the fields this test added that it lacked are removed.
    await patchStatus(
      get.status
        ? { observedGeneration: null, conditions: null, ...get.status }
        : null,
    );
  }
  await expectCardFollowsTruth(card, target, now =>
    expect(now.state, 'the truth after the status was restored').toBe(
      target.state,
    ),
  );
});
