import { expect, test } from '@playwright/test';
import { FINDING_WORDS } from './expectedWords';
import { FleetPage } from './fleetPage';
import { objectKey, readTruth, TruthFinding } from './groundTruth';
import { screenshotPath, signIn } from './helpers';

/**
 * Findings about shards and instances, not objects: the truth lists object-level findings only. Instance-level
 * version findings are checked against the simulator's release plan in flux-fleet-backend's fluxVersions test.
 */
const SHARD_FINDINGS = ['shard-over-capacity', 'upgrade-blocked', 'mixed-versions'];

test('the fleet page lists every finding of the ground truth, and each group leads to its objects', async ({
  page,
}) => {
  await signIn(page);
  const fleet = new FleetPage(page);
  await fleet.open();
  await fleet.findings();

  // Deliberate problems stay in place while the fleet churns, so one reading of the truth holds for the test.
  const truth = await readTruth();
  const byType = new Map<string, TruthFinding[]>();
  for (const f of truth.findings) {
    byType.set(f.type, [...(byType.get(f.type) ?? []), f]);
  }
  expect(
    byType.size,
    'the simulated fleet has injected findings',
  ).toBeGreaterThan(0);

  // Every object-level type of the truth is shown, and no other.
  expect(
    (await fleet.findingTypes())
      .filter(type => !SHARD_FINDINGS.includes(type))
      .sort(),
  ).toEqual([...byType.keys()].sort());
  for (const [type, findings] of byType) {
    await expect(
      fleet.findingGroup(type).getByRole('heading'),
      `heading of the ${type} group`,
    ).toHaveText(
      new RegExp(`^${escape(FINDING_WORDS[type])} \\(${findings.length}\\)`),
    );
  }
  await page.screenshot({
    animations: 'disabled',
    path: screenshotPath('fleet-page-findings.png'),
    fullPage: true,
  });

  // Each group's "Show objects" filters the objects table to exactly the objects the truth names.
  for (const [type, findings] of byType) {
    await fleet.findings();
    await fleet
      .findingGroup(type)
      .getByRole('button', { name: `Show objects: ${FINDING_WORDS[type]}` })
      .click();
    const expected = [...new Set(findings.map(objectKey))].sort();
    const { keys, range } = await fleet.objectRows();
    expect(range, `objects of the ${type} group`).toBe(
      `1–${expected.length} of ${expected.length}`,
    );
    expect(keys.sort(), `objects of the ${type} group`).toEqual(expected);
    if (type === 'orphan') {
      await page.screenshot({
        animations: 'disabled',
        path: screenshotPath('fleet-page-orphans.png'),
        fullPage: true,
      });
    }
  }
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
