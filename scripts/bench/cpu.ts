import { existsSync, readFileSync } from 'node:fs'

/**
 * CPU time of each measured call, beside the wall time `timeIt` takes: the main thread's own (Linux schedstat: time
 * on a CPU, not time waiting for one) and the whole process's (the collector's helper threads included). On the
 * shared 2-core VM a wall-time p50 mostly measures other processes; these say what the call itself cost
 * (docs/decisions/0330).
 */
export function cpuMeter() {
  const schedstat = '/proc/thread-self/schedstat'
  const hasThreadClock = existsSync(schedstat)
  const mainMs = () => Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6
  const main: number[] = []
  const whole: number[] = []
  const p50 = (samples: number[], skip: number) => {
    const kept = samples.slice(skip).sort((a, b) => a - b)
    return kept.length ? kept[kept.length >> 1] : undefined
  }
  return {
    /** Runs `fn` and records its CPU times. */
    measure<T>(fn: () => T): T {
      const m0 = hasThreadClock ? mainMs() : 0
      const c0 = process.cpuUsage()
      const result = fn()
      const c = process.cpuUsage(c0)
      if (hasThreadClock) main.push(mainMs() - m0)
      whole.push((c.user + c.system) / 1000)
      return result
    },
    /** Medians in ms after the first `skip` calls (the warm-up); main is undefined off Linux. */
    p50(skip: number) {
      return { main: p50(main, skip), process: p50(whole, skip) }
    },
  }
}
