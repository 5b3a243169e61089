import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { TestApiProvider } from '@backstage/test-utils';
import { signalApiRef } from '@backstage/plugin-signals-react';
import { FakeSignalApi } from '../__testUtils__/fakeSignalApi';
import { useLiveRefresh } from './useLiveRefresh';

const CHANNEL = 'flux-fleet:entity:component:default/payments';

function setup() {
  const signals = new FakeSignalApi();
  const refresh = jest.fn();
  renderHook(() => useLiveRefresh(CHANNEL, refresh, 500), {
    wrapper: ({ children }: { children?: ReactNode }) => (
      <TestApiProvider apis={[[signalApiRef, signals]]}>
        {children}
      </TestApiProvider>
    ),
  });
  let n = 0;
  const signal = () =>
    act(() => {
      n++;
      signals.publish(CHANNEL, {
        keys: [`k${n}`],
        at: new Date().toISOString(),
      });
    });
  return { refresh, signal };
}

describe('useLiveRefresh', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('refreshes at once on the first signal: an open page shows a change as soon as it is announced', () => {
    const { refresh, signal } = setup();
    expect(refresh).not.toHaveBeenCalled();
    signal();
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('answers a burst of signals with one more refresh at the end of the delay, not one per signal', () => {
    const { refresh, signal } = setup();
    signal();
    act(() => jest.advanceTimersByTime(100));
    signal();
    act(() => jest.advanceTimersByTime(100));
    signal();
    expect(refresh).toHaveBeenCalledTimes(1);
    act(() => jest.advanceTimersByTime(299));
    expect(refresh).toHaveBeenCalledTimes(1);
    act(() => jest.advanceTimersByTime(1));
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('refreshes at once again after a quiet spell', () => {
    const { refresh, signal } = setup();
    signal();
    act(() => jest.advanceTimersByTime(2_000));
    signal();
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
