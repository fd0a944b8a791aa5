import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TaskSpec } from '../../gym/task.ts'
import { createGym } from '../../gym/index.ts'
import { runAttacks } from '../../gym/attacks/index.ts'
import { validateTask } from '../../gym/validate.ts'
import { validatePool, validateSerial, type Progress } from '../../gym/validate-pool.ts'
import { progressReporter } from '../../scripts/validate-tasks.ts'
import { families } from '../../tasks-lite/families/index.ts'
// @ts-expect-error: the launcher's helpers are plain JavaScript without declarations
import { distIsFresh } from '../../bin/dist-fresh.mjs'

// A single-app, a cross-app and a Slack family: small enough for the suite, different enough to exercise the pool.
const sample = ['gmail-label-sender', 'gmail-drive-invoice', 'slack-pin-final']
  .flatMap((id) => families.filter((f) => f.id === id))
  .map((f) => TaskSpec.parse(f.generate(1)))

describe('tasks:validate in worker threads', () => {
  it('gives the same verdicts, in the input order, with 2 workers as serially', async () => {
    expect(sample.length).toBe(3)
    const seen: Progress[] = []
    const pooled = await validatePool(sample, { workers: 2, progress: (p) => seen.push(p) })
    const serial = await validateSerial(sample)
    expect(pooled.map((r) => r.id)).toEqual(sample.map((t) => t.id))
    expect(JSON.stringify(pooled)).toBe(JSON.stringify(serial))
    expect(serial.every((r) => r.ok)).toBe(true)
    expect(seen.map((p) => p.done)).toEqual([1, 2, 3])
    expect(seen.at(-1)).toMatchObject({ total: 3, failed: 0 })
  }, 240_000)

  it('gives the same verdicts on reused connections (validation) as on a fresh world per episode', async () => {
    const reused = await validateSerial(sample)
    const gym = createGym({ tasks: [] })
    try {
      const fresh = []
      for (const t of sample) fresh.push(await validateTask(gym, t))
      expect(reused.map((r) => r.attacks.length).every((n) => n > 0)).toBe(true)
      expect(JSON.stringify(reused)).toBe(JSON.stringify(fresh))
    } finally {
      gym.worlds.close()
    }
  }, 240_000)

  it('judges attacks the same whether the reference outcome is reused or run again', async () => {
    const gym = createGym({ tasks: [] })
    try {
      for (const t of sample) {
        const reused = (await validateTask(gym, t)).attacks
        const rerun = await runAttacks(gym, t)
        expect(reused.length, t.id).toBeGreaterThan(0)
        expect(JSON.stringify(reused), t.id).toBe(JSON.stringify(rerun))
      }
    } finally {
      gym.worlds.close()
    }
  }, 240_000)

  it('reports a task whose validation throws as invalid instead of stopping the run', async () => {
    const broken = TaskSpec.parse({ ...sample[0]!, id: 'broken-1', actor: 'nobody' })
    const [r] = await validateSerial([broken])
    expect(r!.ok).toBe(false)
    expect(r!.problems.join(' ')).toMatch(/validation threw: .*nobody/)
  }, 60_000)
})

describe('progress', () => {
  const sink = (isTTY: boolean) => {
    const out = { isTTY, text: '', write: (s: string) => ((out.text += s), true) }
    return out
  }
  const last = (ok: boolean) => ({ id: 'fam-3', ok, problems: ok ? [] : ['no-op scored 1'] }) as Progress['last']
  const p = (done: number, failed = 0, ok = true) => ({ done, total: 40, failed, last: last(ok) })

  it('redraws one bar on a terminal with done/total, failures and an ETA', () => {
    let t = 0
    const out = sink(true)
    const report = progressReporter(out as unknown as NodeJS.WriteStream, () => t)
    t = 10_000
    report(p(10, 1))
    expect(out.text).toBe('\r[########......................] 10/40 tasks, 1 failed, 1.0 tasks/s, 10s ETA 30s\x1b[K')
    t = 40_000
    report(p(40, 1))
    expect(out.text.endsWith('40/40 tasks, 1 failed, 1.0 tasks/s, 40s\x1b[K\n')).toBe(true)
  })

  it('prints plain lines about every 5% elsewhere', () => {
    const out = sink(false)
    const report = progressReporter(out as unknown as NodeJS.WriteStream, () => 1000)
    for (let i = 1; i <= 40; i++) report(p(i))
    const lines = out.text.trim().split('\n')
    // The first task, then one line per 5% step (the last at 40/40).
    expect(lines.length).toBe(21)
    expect(lines.at(-1)).toMatch(/^validate: 40\/40 tasks, 0 failed/)
    expect(out.text).not.toContain('\r')
  })

  it('names an invalid task as soon as it is known, on a terminal and elsewhere', () => {
    for (const isTTY of [false, true]) {
      const out = sink(isTTY)
      const report = progressReporter(out as unknown as NodeJS.WriteStream, () => 1000)
      report(p(1))
      expect(out.text).not.toContain('invalid')
      report(p(2, 1, false))
      expect(out.text).toContain('invalid: fam-3: no-op scored 1\n')
    }
  })
})

describe('tasks:validate --results', () => {
  it('writes every verdict as a JSON line and prints the digest of those lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsgym-results-'))
    try {
      const file = join(dir, 'results.jsonl')
      const run = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'scripts/validate-tasks.ts',
          '--family',
          'slack-pin-final',
          '--sample',
          '2',
          '--workers',
          '1',
          '--no-attacks',
          '--results',
          file,
        ],
        { cwd: join(import.meta.dirname, '..', '..'), encoding: 'utf8' },
      )
      expect(run.status, run.stderr).toBe(0)
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
      const ids = lines.map((l) => (JSON.parse(l) as { id: string }).id)
      expect(new Set(ids).size).toBe(2)
      for (const id of ids) expect(id).toMatch(/^slack-pin-final-\d+$/)
      expect(lines.every((l) => (JSON.parse(l) as { ok: boolean }).ok)).toBe(true)
      const digest = createHash('sha256').update(lines.join('\n')).digest('hex')
      expect(run.stderr).toContain(`wrote 2 results to ${file} (sha256 ${digest})`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})

describe('npm run tasks:validate (scripts/validate-tasks.mjs)', () => {
  it('prints its options for --help and validates nothing', () => {
    const root = join(import.meta.dirname, '..', '..')
    // Without the option this validates the whole corpus (20 CPU-minutes): the timeout ends that run as a failure.
    const run = spawnSync(process.execPath, ['scripts/validate-tasks.mjs', '--help', '--workers', '1'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain('--results FILE')
    expect(run.stdout).toContain('--sample N')
    expect(run.stderr).not.toMatch(/tasks, \d+ failed/)
  }, 90_000)

  it('runs the compiled validator when dist/ is current, with the verdicts of the sources, in worker threads', () => {
    const root = join(import.meta.dirname, '..', '..')
    const dir = mkdtempSync(join(tmpdir(), 'wsgym-launcher-'))
    try {
      const args = ['--family', 'slack-pin-final', '--sample', '2', '--workers', '2', '--no-attacks', '--results']
      const launched = spawnSync(process.execPath, ['scripts/validate-tasks.mjs', ...args, join(dir, 'a.jsonl')], {
        cwd: root,
        encoding: 'utf8',
      })
      const sources = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'scripts/validate-tasks.ts', ...args, join(dir, 'b.jsonl')],
        { cwd: root, encoding: 'utf8' },
      )
      expect(launched.status, launched.stderr).toBe(0)
      expect(sources.status, sources.stderr).toBe(0)
      // npm ci builds dist/ (prepare): then the launcher must not fall back to tsx.
      const fallback = 'running them through tsx'
      if (distIsFresh(root)) expect(launched.stderr).not.toContain(fallback)
      else expect(launched.stderr).toContain(fallback)
      expect(readFileSync(join(dir, 'a.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'b.jsonl'), 'utf8'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 180_000)

  it("doubles TurboFan's interrupt budget for its process unless node was given one", () => {
    const root = join(import.meta.dirname, '..', '..')
    const dir = mkdtempSync(join(tmpdir(), 'wsgym-launcher-'))
    // A preload that reports every V8 flag set at run time (the launcher sets them before importing the validator).
    const spy =
      "import v8 from 'node:v8'; const set = v8.setFlagsFromString; " +
      'v8.setFlagsFromString = (f) => { process.stderr.write(`v8 flag ${f}\\n`); set(f) }'
    const preload = `data:text/javascript,${encodeURIComponent(spy)}`
    const args = ['--family', 'slack-pin-final', '--sample', '1', '--workers', '1', '--no-attacks', '--results']
    const launch = (nodeFlags: string[], out: string) =>
      spawnSync(process.execPath, [...nodeFlags, '--import', preload, 'scripts/validate-tasks.mjs', ...args, out], {
        cwd: root,
        encoding: 'utf8',
      })
    try {
      const plain = launch([], join(dir, 'a.jsonl'))
      expect(plain.status, plain.stderr).toBe(0)
      expect(plain.stderr).toContain('v8 flag --interrupt-budget=135168')
      const given = launch(['--interrupt-budget=67584'], join(dir, 'b.jsonl'))
      expect(given.status, given.stderr).toBe(0)
      expect(given.stderr).not.toContain('v8 flag')
      expect(readFileSync(join(dir, 'a.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'b.jsonl'), 'utf8'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
