import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Running } from '../../server/main.ts'
import { createGym, runProgram } from '../../gym/index.ts'
import { GymClient } from '../../trainer/http.ts'
import { collectReferences, fill, loadCorpusFiles, pick, type CorpusTask } from '../../trainer/reference.ts'
import { DEFAULT_CORPUS, main } from '../../trainer/cli.ts'
import type { RolloutRecord } from '../../trainer/types.ts'
import { ADMIN, corpus, startGym } from './support.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tempDir = tempDirs()

let server: Running
let gym: GymClient
beforeAll(async () => {
  server = await startGym()
  gym = new GymClient(server.controlUrl, ADMIN)
})
afterAll(async () => server?.close())

const files = loadCorpusFiles(DEFAULT_CORPUS)
const local = createGym()
const onePerFamily = [...new Map(files.map((t) => [t.family, t])).values()].map((t) =>
  files.find((x) => x.family === t.family)!,
)

describe('corpus files', () => {
  it('reads the same tasks, in the same order, as the gym loads', () => {
    expect(files.map((t) => t.id)).toEqual(corpus.map((t) => t.id))
    expect(files.map((t) => JSON.stringify(t.reference))).toEqual(corpus.map((t) => JSON.stringify(t.reference)))
  })
})

describe('program bindings', () => {
  const value = {
    messages: [
      { id: 'm1', text: 'Host for Atlas?', ts: '1.0' },
      { id: 'm2', text: 'other', ts: '2.0' },
    ],
    permissions: [
      { type: 'user', id: 'p1' },
      { type: 'anyone', id: 'p2' },
    ],
    payload: { headers: [{ name: 'Message-ID', value: '<x@y>' }] },
  }
  it('reads save paths: keys, indexes, maps and field matches', () => {
    const expected: [string, unknown][] = [
      ['messages.0.id', 'm1'],
      ['messages.*.id', ['m1', 'm2']],
      ['permissions[type=anyone].id', 'p2'],
      ['messages[text~=host for atlas?].ts', '1.0'],
      ['payload.headers[name=message-id].value', '<x@y>'],
      ['$', value],
      ['missing.x', undefined],
      ['messages.5.id', undefined],
    ]
    for (const [path, want] of expected) expect(pick(value, path), path).toEqual(want)
  })
  it('fills whole-string bindings with their typed value and embedded ones as text', () => {
    expect(fill({ ids: '{{ids}}', path: '/x/{{id}}/y', n: 3 }, { ids: ['a', 'b'], id: 'q' })).toEqual({
      ids: ['a', 'b'],
      path: '/x/q/y',
      n: 3,
    })
  })
})

describe('reference trajectories through the HTTP gym', () => {
  it('turns one reference program per family into a passing trajectory with real observations', async () => {
    const records = await collectReferences({ gym, tasks: onePerFamily, concurrency: 3 })
    expect(records.map((r) => r.taskId)).toEqual(onePerFamily.map((t) => t.id))
    for (const [i, r] of records.entries()) {
      const task = onePerFamily[i]!
      expect(r.verdict, `${r.taskId}: ${r.error}`).toMatchObject({ reward: 1, passed: true, violations: [] })
      expect(r).toMatchObject({ source: 'reference', model: 'reference', stopReason: 'terminated', index: i })
      const calls = r.messages.filter((m) => m.role === 'assistant') as {
        tool_calls: { function: { name: string; arguments: string } }[]
      }[]
      // Answer tasks close their reference with their own `done` (carrying the answer): no second one is added.
      const closes = task.reference.at(-1)?.tool === 'done'
      const tools = [...task.reference.map((s) => s.tool), ...(closes ? [] : ['done'])]
      expect(calls.map((c) => c.tool_calls[0]!.function.name)).toEqual(tools)
      expect(r.steps).toBe(tools.length)
      const obs = r.messages.filter((m) => m.role === 'tool').map((m) => m.content)
      expect(obs.at(-1)).toBe('ok')
      // Observations as the gym renders them (long ones cut at the task's maxObservationChars), with the statuses the
      // control-side program runner gets for the same program.
      const statuses = obs.slice(0, -1).map((o) => Number(/^\{"status":(\d+),"body":/.exec(o)?.[1]))
      const ep = local.reset(corpus.find((t) => t.id === task.id)!)
      expect(statuses, r.taskId).toEqual((await runProgram(ep, ep.task.reference)).statuses)
      ep.close()
      // No binding placeholder or macro reaches the model's side of the conversation.
      expect(JSON.stringify(calls)).not.toMatch(/\{\{|\$rfc822/)
    }
  }, 60_000)

  it('expands the $rfc822 macro into the base64url message an agent would send', async () => {
    const task = files.find((t) => JSON.stringify(t.reference).includes('$rfc822'))!
    const [r] = await collectReferences({ gym, tasks: [task] })
    expect(r!.verdict?.passed, r!.error ?? '').toBe(true)
    const send = (
      r!.messages.filter((m) => m.role === 'assistant') as { tool_calls: { function: { arguments: string } }[] }[]
    )
      .map((m) => JSON.parse(m.tool_calls[0]!.function.arguments))
      .find((a) => a.body?.raw)
    const mime = Buffer.from(send.body.raw, 'base64url').toString('utf8')
    expect(mime).toMatch(/^Subject: /m)
    expect(mime).toMatch(/^Content-Type: /m)
  })

  it('resets a task the server does not know with the task inline', async () => {
    const custom: CorpusTask = { ...onePerFamily[0]!, id: 'trainer-custom-task-1' }
    const [r] = await collectReferences({ gym, tasks: [custom] })
    expect(r).toMatchObject({ taskId: 'trainer-custom-task-1', verdict: { passed: true, reward: 1 } })
  })

  it('reports a binding it cannot read from a truncated observation instead of guessing', async () => {
    // A family whose first call lists mail (an observation far longer than 200 characters) and binds from it.
    const task = files.find((t) => t.family === 'gmail-reply-po' && t.reference[0]?.save)!
    const [r] = await collectReferences({
      gym,
      tasks: [{ ...task, id: 'trainer-truncated-1', maxObservationChars: 200 }],
    })
    expect(r).toMatchObject({ stopReason: 'gym_error', verdict: null })
    expect(r!.error).toMatch(/^step \d+: the observation was truncated/)
    expect((await gym.call<{ episodes: unknown[] }>('GET', '/gym/episodes')).episodes).toEqual([])
  })

  it('writes reference records with the CLI', async () => {
    const out = join(tempDir('trainer-ref-'), 'ref.jsonl')
    const family = onePerFamily[1]!.family
    const logs: string[] = []
    expect(
      await main(
        [
          'reference',
          '--gym-url',
          server.controlUrl,
          '--admin-token',
          ADMIN,
          '--family',
          family,
          '--per-family',
          '2',
          '--out',
          out,
        ],
        { out: (s) => logs.push(s), err: (s) => logs.push(s), env: {} },
      ),
    ).toBe(0)
    const records = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RolloutRecord)
    expect(records.map((r) => r.taskId)).toEqual(
      files
        .filter((t) => t.family === family)
        .slice(0, 2)
        .map((t) => t.id),
    )
    expect(records.every((r) => r.verdict?.passed)).toBe(true)
    expect(logs.join('\n')).toMatch(new RegExp(`^${family}\\s+2\\s+100\\.0% \\(2\\)`, 'm'))
  })

  it('writes to runs/reference.jsonl under the working directory without --out', async () => {
    const cwd = process.cwd()
    const dir = tempDir('trainer-ref-default-')
    const logs: string[] = []
    process.chdir(dir)
    try {
      const args = ['reference', '--gym-url', server.controlUrl, '--admin-token', ADMIN, '--task', files[0]!.id]
      expect(await main(args, { out: (s) => logs.push(s), err: (s) => logs.push(s), env: {} })).toBe(0)
    } finally {
      process.chdir(cwd)
    }
    const lines = readFileSync(join(dir, 'runs', 'reference.jsonl'), 'utf8')
      .trim()
      .split('\n')
    const records = lines.map((l) => JSON.parse(l) as RolloutRecord)
    expect(records.map((r) => r.taskId)).toEqual([files[0]!.id])
    expect(logs[0]).toBe(`reference: 1 task(s) → ${join('runs', 'reference.jsonl')}`)
  })
})
