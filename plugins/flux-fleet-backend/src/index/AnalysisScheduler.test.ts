import { AnalysisScheduler, INITIAL_SYNC_MAX_DELAY_MS, STATUS_BATCH_MS } from './AnalysisScheduler';

/** A scheduler whose passes are recorded with the (fake) time they ran at. */
function scheduler(over: { initialSync?: boolean; synced?: boolean } = {}) {
  const runs: string[] = [];
  const state = {
    structural: false,
    status: false,
    initialSync: over.initialSync ?? false,
    synced: over.synced ?? true,
    /** How often the scheduler asked whether the first list goes on (a cost: it reads the watch's state). */
    initialSyncAsked: 0,
  };
  const s = new AnalysisScheduler(
    { debounceMs: 100, maxDelayMs: 500, refreshIntervalMs: 10_000 },
    {
      analyse: () => {
        state.structural = false;
        runs.push(`analyse@${Date.now()}`);
      },
      rederiveStatus: () => {
        state.status = false;
        runs.push(`status@${Date.now()}`);
      },
      structuralPending: () => state.structural,
      statusPending: () => state.status,
      initialSync: () => {
        state.initialSyncAsked++;
        return state.initialSync;
      },
      refreshDue: () => state.synced,
      applyMeasurements: () => runs.push(`measurements@${Date.now()}`),
    },
  );
  const structuralChange = () => {
    state.structural = true;
    s.changed();
  };
  const statusChange = () => {
    state.status = true;
    s.changed();
  };
  return { s, runs, state, structuralChange, statusChange };
}

describe('AnalysisScheduler', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('analyses a burst of structural changes once, after it pauses', () => {
    const { s, runs, structuralChange } = scheduler();
    structuralChange();
    jest.advanceTimersByTime(50);
    structuralChange();
    jest.advanceTimersByTime(50);
    structuralChange();
    jest.advanceTimersByTime(1_000);
    expect(runs).toEqual(['analyse@200']);
    s.close();
  });

  it('analyses a cluster that never stops changing at the maximum delay', () => {
    const { s, runs, structuralChange } = scheduler();
    for (let t = 0; t < 600; t += 50) {
      structuralChange();
      jest.advanceTimersByTime(50);
    }
    expect(runs[0]).toBe('analyse@500');
    s.close();
  });

  it('re-derives status changes in one batch, without an analysis', () => {
    const { s, runs, statusChange } = scheduler();
    statusChange();
    statusChange();
    jest.advanceTimersByTime(STATUS_BATCH_MS);
    expect(runs).toEqual([`status@${STATUS_BATCH_MS}`]);
    s.close();
  });

  it('re-derives a status change at once while an analysis waits for other changes of its cluster', () => {
    const { s, runs, structuralChange, statusChange } = scheduler();
    structuralChange();
    jest.advanceTimersByTime(50);
    statusChange();
    jest.advanceTimersByTime(1_000);
    // the status pass 10 ms after its change; the analysis after the pause that the status change extended
    expect(runs).toEqual([`status@${50 + STATUS_BATCH_MS}`, 'analyse@150']);
    s.close();
  });

  it('runs no status pass during a first list: everything waits for its one analysis', () => {
    const { s, runs, state, statusChange } = scheduler({ initialSync: true });
    statusChange();
    jest.advanceTimersByTime(1_000);
    expect(runs).toEqual([]);
    // a list page's thousand changes ask whether the first list goes on once, not once each
    state.initialSyncAsked = 0;
    for (let i = 0; i < 1_000; i++) statusChange();
    jest.advanceTimersByTime(STATUS_BATCH_MS);
    expect(runs).toEqual([]);
    expect(state.initialSyncAsked).toBeLessThanOrEqual(2);
    s.close();
  });

  it('holds the analysis during a first list until it is complete, or at most the initial-sync delay', () => {
    const first = scheduler({ initialSync: true });
    first.structuralChange();
    jest.advanceTimersByTime(5_000);
    expect(first.runs).toEqual([]);
    // the list completed: the index asks for the analysis now
    first.state.initialSync = false;
    first.s.analyseNow();
    expect(first.runs).toEqual(['analyse@5000']);
    first.s.close();

    const never = scheduler({ initialSync: true });
    never.structuralChange();
    jest.advanceTimersByTime(INITIAL_SYNC_MAX_DELAY_MS * 2);
    expect(never.runs).toEqual([`analyse@${5_000 + INITIAL_SYNC_MAX_DELAY_MS}`]);
    never.s.close();
  });

  it('analyses a first list that goes on for minutes a few times, each wait twice the last, not every debounce', () => {
    const { s, runs, structuralChange } = scheduler({ initialSync: true });
    // pages keep arriving every 200 ms for 3 minutes
    for (let t = 0; t < 180_000; t += 200) {
      structuralChange();
      jest.advanceTimersByTime(200);
    }
    // 10 s after the first page, then 20 s, 40 s and 80 s after each analysis (a page arrives with each)
    expect(runs).toEqual(['analyse@10000', 'analyse@30000', 'analyse@70000', 'analyse@150000']);
    s.close();
  });

  it('says how long changes have waited, for the lag it adds to the cluster health', () => {
    const { s, structuralChange } = scheduler();
    expect(s.waitingMs(Date.now())).toBe(0);
    structuralChange();
    jest.advanceTimersByTime(60);
    expect(s.waitingMs(Date.now())).toBe(60);
    s.close();
  });

  it('says that changes wait from the millisecond they came, so a catch-up analyses them at once', () => {
    const { s, runs, structuralChange } = scheduler();
    expect(s.waiting).toBe(false);
    structuralChange();
    // no time has passed: 0 ms waited, yet something waits
    expect(s.waitingMs(Date.now())).toBe(0);
    expect(s.waiting).toBe(true);
    s.analyseNow();
    expect(runs).toHaveLength(1);
    expect(s.waiting).toBe(false);
    s.close();
  });

  it('refreshes at its phase of the interval: an analysis when one is due, else the latest measurements alone', () => {
    const { s, runs, state } = scheduler();
    s.startRefresh(0.5);
    jest.advanceTimersByTime(5_000);
    expect(runs).toEqual(['analyse@5000']);
    jest.advanceTimersByTime(10_000);
    expect(runs).toEqual(['analyse@5000', 'analyse@15000']);
    // no analysis due (here: not synced)
    state.synced = false;
    jest.advanceTimersByTime(10_000);
    expect(runs).toEqual(['analyse@5000', 'analyse@15000', 'measurements@25000']);
    s.stopRefresh();
    state.synced = true;
    jest.advanceTimersByTime(30_000);
    expect(runs).toHaveLength(3);
    s.close();
  });

  it('runs nothing after close', () => {
    const { s, runs, structuralChange, statusChange } = scheduler();
    structuralChange();
    statusChange();
    s.close();
    jest.advanceTimersByTime(10_000);
    s.analyseNow();
    expect(runs).toEqual([]);
  });
});
