/** One printed benchmark figure. Benchmarks print; tests never assert timings. */
export type BenchFigure = { name: string; value: number; unit: string; target?: string }

/** Latency percentiles (ms) of `fn` over `runs` calls after `warmup` calls. */
export async function timeIt(fn: () => unknown | Promise<unknown>, runs = 200, warmup = 20) {
  for (let i = 0; i < warmup; i++) await fn()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    await fn()
    samples.push(performance.now() - t)
  }
  samples.sort((a, b) => a - b)
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!
  return { p50: at(0.5), p99: at(0.99), mean: samples.reduce((a, b) => a + b, 0) / samples.length }
}
