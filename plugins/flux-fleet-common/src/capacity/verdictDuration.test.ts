import type { CapacityHistoryPoint } from '../capacityApi';
import { formatHeldFor, heldVerdict } from './verdictDuration';

/** One point a minute from 12:00, with the given utilisations (undefined: a failed scrape). */
function minutes(
  ...utilisations: Array<number | undefined>
): CapacityHistoryPoint[] {
  return utilisations.map((u, i) => ({
    at: new Date(Date.UTC(2026, 11, 1, 12, i)).toISOString(),
    ...(u === undefined ? {} : { utilisation: u }),
  }));
}

describe('heldVerdict and formatHeldFor', () => {
  it.each<
    [
      string,
      CapacityHistoryPoint[],
      'near-capacity' | 'over-capacity',
      string | undefined,
    ]
  >([
    [
      'over since the third point',
      minutes(0.5, 0.6, 1, 1, 1, 0.98),
      'over-capacity',
      'for 3 minutes',
    ],
    [
      'over in every point kept',
      minutes(1, 1, 1),
      'over-capacity',
      'for at least 2 minutes',
    ],
    [
      'a failed scrape does not end the run',
      minutes(0.4, 1, undefined, 1, 1),
      'over-capacity',
      'for 3 minutes',
    ],
    [
      'near counts points over too',
      minutes(0.3, 0.75, 1, 0.8),
      'near-capacity',
      'for 2 minutes',
    ],
    [
      'latest point under the threshold: not said',
      minutes(1, 1, 0.5),
      'over-capacity',
      undefined,
    ],
    ['one point is no duration', minutes(0.2, 1), 'over-capacity', undefined],
    [
      'under a minute is not said',
      [
        { at: '2026-12-01T12:00:00Z', utilisation: 1 },
        { at: '2026-12-01T12:00:30Z', utilisation: 1 },
      ],
      'over-capacity',
      undefined,
    ],
    ['no history', [], 'over-capacity', undefined],
    [
      'an unreadable time',
      [
        { at: 'yesterday', utilisation: 1 },
        { at: '2026-12-01T12:00:30Z', utilisation: 1 },
      ],
      'over-capacity',
      undefined,
    ],
    [
      'hours by the half',
      [
        { at: '2026-12-01T09:00:00Z', utilisation: 0.2 },
        { at: '2026-12-01T10:00:00Z', utilisation: 1 },
        { at: '2026-12-01T12:40:00Z', utilisation: 1 },
      ],
      'over-capacity',
      'for 2.5 hours',
    ],
    [
      '89 minutes stay minutes',
      [
        { at: '2026-12-01T09:00:00Z', utilisation: 0.2 },
        { at: '2026-12-01T10:00:00Z', utilisation: 1 },
        { at: '2026-12-01T11:29:59Z', utilisation: 1 },
      ],
      'over-capacity',
      'for 89 minutes',
    ],
  ])('%s', (_, points, verdict, expected) => {
    expect(formatHeldFor(heldVerdict(points, verdict))).toBe(expected);
  });
});
