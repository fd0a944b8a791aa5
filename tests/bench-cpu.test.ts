import { describe, expect, test } from 'vitest'
import { cpuMeter } from '../scripts/bench/cpu.ts'

/** A fixed amount of work on this thread (no timing involved). */
function spin(): number {
  let x = 0
  for (let i = 0; i < 30_000_000; i++) x = (x + i) % 1_000_003
  return x
}

describe('bench cpuMeter', () => {
  test('returns what the call returns and leaves the warm-up calls out of the median', () => {
    const meter = cpuMeter()
    expect(meter.measure(() => 42)).toBe(42)
    expect(meter.p50(1)).toEqual({ main: undefined, process: undefined })
    meter.measure(() => 0)
    expect(meter.p50(1).process).toBeGreaterThanOrEqual(0)
  })

  test('counts work done on the thread, not time spent asleep', () => {
    const busy = cpuMeter()
    busy.measure(spin)
    const asleep = cpuMeter()
    const sleepMs = 200
    asleep.measure(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, sleepMs))
    // Asleep, the thread uses (almost) no CPU: far less than the time it slept.
    expect(asleep.p50(0).process!).toBeLessThan(sleepMs / 2)
    expect(busy.p50(0).process!).toBeGreaterThan(asleep.p50(0).process!)
    if (process.platform === 'linux') {
      expect(asleep.p50(0).main!).toBeLessThan(sleepMs / 2)
      expect(busy.p50(0).main!).toBeGreaterThan(asleep.p50(0).main!)
    }
  })
})
