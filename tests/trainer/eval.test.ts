import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Running } from '../../server/main.ts'
import { figures, passAtK, progressBar, taskSplit } from '../../trainer/eval.ts'
import { GymClient } from '../../trainer/http.ts'
import { main } from '../../trainer/cli.ts'
import type { RolloutRecord } from '../../trainer/types.ts'
import { ADMIN, corpus, fakeModelServer, isTaskObservation, nextProgramCall, startGym, toolCall } from './support.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tempDir = tempDirs()

describe('taskSplit', () => {
  it("uses a task's own split and otherwise a fixed function of its id", () => {
    expect(taskSplit({ id: 'anything', split: 'dev' })).toBe('dev')
    expect(taskSplit({ id: 'x', split: 'bogus' })).toBe(taskSplit({ id: 'x' }))
    const splits = corpus.map((t) => taskSplit({ id: t.id }))
    expect(corpus.map((t) => taskSplit({ id: t.id }))).toEqual(splits)
    for (const s of ['train', 'dev', 'test'] as const)
      expect(splits.filter((x) => x === s).length, s).toBeGreaterThan(0)
    expect(splits.filter((x) => x === 'train').length).toBeGreaterThan(splits.length / 2)
  })
})

describe('pass@k', () => {
  it('is the unbiased estimator over n samples', () => {
    expect(passAtK(5, 1, 1)).toBeCloseTo(0.2)
    expect(passAtK(5, 0, 3)).toBe(0)
    expect(passAtK(2, 1, 2)).toBe(1)
    expect(passAtK(4, 2, 2)).toBeCloseTo(1 - 1 / 6)
    expect(() => passAtK(1, 1, 2)).toThrow('at least 2 samples')
  })

  it('is averaged over tasks while success averages over episodes', () => {
    const rec = (taskId: string, passed: boolean, unsafe = false) =>
      ({
        taskId,
        family: 'f',
        steps: 3,
        verdict: { passed, reward: passed ? 1 : 0, violations: unsafe ? [{ kind: 'leak', message: '' }] : [] },
      }) as unknown as RolloutRecord
    const f = figures('f', [rec('a', true), rec('a', false), rec('b', false, true), rec('b', false)], 2)
    expect(f).toMatchObject({
      tasks: 2,
      episodes: 4,
      success: 0.25,
      passAtK: 0.5,
      unsafeRate: 0.25,
      meanSteps: 3,
      errors: 0,
    })
  })
})

let server: Running
let llm: Awaited<ReturnType<typeof fakeModelServer>>
beforeAll(async () => {
  server = await startGym()
  llm = await fakeModelServer((model, body) => {
    const messages = body.messages as Parameters<typeof nextProgramCall>[1]
    if (model !== 'lora') return { message: { content: 'I am not sure.' } }
    const user = String(messages.find((m) => m.role === 'user')?.content)
    const task = corpus.find((t) => isTaskObservation(t, user))!
    const turn = messages.filter((m) => m.role === 'assistant').length
    const c = nextProgramCall(task.reference, messages)
    return { message: { content: null, tool_calls: [toolCall(`call_${turn}`, c.name, c.arguments)] } }
  })
})
afterAll(async () => {
  await llm?.close()
  await server?.close()
})

describe('eval command', () => {
  it('runs the test split for a base model and its adapter and compares them, as JSON and a table', async () => {
    const tasks = await new GymClient(server.controlUrl, ADMIN).tasks()
    const test = tasks.filter((t) => taskSplit(t) === 'test')
    const replayable = (id: string) => !JSON.stringify(corpus.find((t) => t.id === id)!.reference).includes('$rfc822')
    const family = [...new Set(test.map((t) => t.family))].find((f) =>
      test.filter((t) => t.family === f).every((t) => replayable(t.id)),
    )!
    expect(family).toBeDefined()
    const n = test.filter((t) => t.family === family).length
    const dir = tempDir('trainer-eval-')
    const out: string[] = []
    const err: string[] = []
    const code = await main(
      [
        'eval',
        '--gym-url',
        server.controlUrl,
        '--admin-token',
        ADMIN,
        '--base-url',
        llm.baseUrl,
        '--model',
        'base',
        '--adapter',
        'lora',
        '--split',
        'test',
        '--family',
        family,
        '--k',
        '2',
        '--json',
        join(dir, 'eval.json'),
        '--out-dir',
        dir,
      ],
      { out: (s) => out.push(s), err: (s) => err.push(s), env: {} },
    )
    expect(code, err.join('\n')).toBe(0)
    const doc = JSON.parse(readFileSync(join(dir, 'eval.json'), 'utf8'))
    expect(doc).toMatchObject({ split: 'test', k: 2, samples: 2 })
    const [base, lora] = doc.reports
    expect(base.overall).toMatchObject({ group: 'all', tasks: n, episodes: 2 * n, success: 0, passAtK: 0, errors: 0 })
    expect(lora.overall).toMatchObject({
      tasks: n,
      episodes: 2 * n,
      success: 1,
      passAtK: 1,
      meanReward: 1,
      unsafeRate: 0,
      errors: 0,
    })
    expect(lora.families.map((f: { group: string }) => f.group)).toEqual([family])
    expect(lora.overall.meanSteps).toBeGreaterThan(1)
    // Only tasks of the split were run.
    const ran = readFileSync(join(dir, 'rollouts-lora.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).taskId)
    expect(new Set(ran)).toEqual(new Set(test.filter((t) => t.family === family).map((t) => t.id)))
    const table = out.join('\n')
    expect(table).toMatch(/^model\s+family\s+tasks\s+episodes\s+success\s+pass@2\s+reward\s+unsafe\s+steps\s+errors/)
    expect(table).toMatch(/lora − base\s+all\s+\+100\.0 pt\s+\+100\.0 pt\s+\+1\.000/)
    expect(err.at(-1)).toBe(progressBar(2 * n, 2 * n, 'lora'))
    // Several samples per task are drawn at temperature 0.7 (one sample: greedy) unless told otherwise.
    expect(llm.requests.find((q) => q.body.model === 'lora')!.body.temperature).toBe(0.7)
  }, 120_000)

  it('is the wsgym eval command', () => {
    const r = spawnSync(process.execPath, ['bin/wsgym.mjs', 'eval', '--help'], {
      encoding: 'utf8',
      cwd: join(import.meta.dirname, '..', '..'),
    })
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^eval --model M \[--adapter NAME\]… --split train\|dev\|test \[--k N\]/)
  })

  it('refuses an unknown split', async () => {
    const err: string[] = []
    expect(
      await main(['eval', '--model', 'm', '--split', 'holdout'], {
        out: () => undefined,
        err: (s) => err.push(s),
        env: {},
      }),
    ).toBe(1)
    expect(err.join()).toContain('--split must be train, dev, test')
  })
})
