/** The benchmark's arithmetic: a scenario's figures over its interleaved slices. */
import { describe, expect, it } from 'vitest';
import { summarise, type Slice } from './load-scenarios.ts';

function slice(latencies: number[], ok: number, durationSeconds: number, non2xx = 0): Slice {
  return { latencies: Float64Array.from(latencies), ok, non2xx, errors: 0, timeouts: 0, durationSeconds };
}

describe('summarise', () => {
  it('gives the rate over the slices summed time, not the mean of their rates', () => {
    // 1,000 in 1 s and 100 in 9 s is 1,100 in 10 s: 110/s, where the mean of the two rates would say 505/s.
    const result = summarise('detail', [slice([1], 1000, 1), slice([1], 100, 9)]);
    expect(result.okPerSecond).toBeCloseTo(110, 6);
  });

  it('takes percentiles over every response of every slice', () => {
    const fast = Array.from({ length: 90 }, () => 1);
    const slow = Array.from({ length: 10 }, (_, i) => 100 + i);
    const result = summarise('sign', [slice(slow, 10, 1), slice(fast, 90, 1)]);
    expect(result.total).toBe(100);
    expect(result.p50).toBe(1);
    expect(result.p95).toBe(105);
    expect(result.p99).toBe(109);
  });

  it('adds up failures', () => {
    const result = summarise('count', [slice([1, 2], 1, 1, 1), slice([3], 0, 1, 1)]);
    expect(result.non2xx).toBe(2);
    expect(result.okPerSecond).toBeCloseTo(0.5, 6);
  });
});
