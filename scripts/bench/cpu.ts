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
  /** The main thread's time on a CPU and time runnable but waiting for one (ms): schedstat's first two fields. */
  const mainMs = () => {
    const [on, waiting] = readFileSync(schedstat, 'utf8').split(' ')
    return [Number(on) / 1e6, Number(waiting) / 1e6] as const
  }
  const main: number[] = []
  const wait: number[] = []
  const whole: number[] = []
  // As timeIt: the sample at floor(q × n) of the sorted samples (of 100, p99 is the largest).
  const at = (samples: number[], q: number, skip: number) => {
    const kept = samples.slice(skip).sort((a, b) => a - b)
    return kept.length ? kept[Math.min(kept.length - 1, Math.floor(q * kept.length))] : undefined
  }
  return {
    /** Runs `fn` and records its CPU times. */
    measure<T>(fn: () => T): T {
      const m0 = hasThreadClock ? mainMs() : [0, 0]
      const c0 = process.cpuUsage()
      const result = fn()
      const c = process.cpuUsage(c0)
      if (hasThreadClock) {
        const m = mainMs()
        main.push(m[0] - m0[0])
        wait.push(m[1] - m0[1])
      }
      whole.push((c.user + c.system) / 1000)
      return result
    },
    /** Medians in ms after the first `skip` calls (the warm-up); main is undefined off Linux. */
    p50(skip: number) {
      return this.quantile(0.5, skip)
    },
    /**
     * The `q` quantile in ms after the first `skip` calls: main-thread CPU, the main thread's wait for a CPU (other
     * processes' turns on a shared host: a wall-time tail of a call that did not cost more), process CPU.
     */
    quantile(q: number, skip: number) {
      return { main: at(main, q, skip), wait: at(wait, q, skip), process: at(whole, q, skip) }
    },
  }
}
