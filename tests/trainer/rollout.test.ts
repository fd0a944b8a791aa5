import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Running } from '../../server/main.ts'
import { createGym, runProgram } from '../../gym/index.ts'
import type { TaskSpec } from '../../gym/task.ts'
import { GymClient, chatCompletion } from '../../trainer/http.ts'
import {
  collectRollouts,
  orderedPool,
  selectTasks,
  summarize,
  formatSummary,
  runEpisode,
} from '../../trainer/rollout.ts'
import { main } from '../../trainer/cli.ts'
import type { RolloutRecord } from '../../trainer/types.ts'
import {
  ADMIN,
  corpus,
  fakeModelServer,
  isTaskObservation,
  nextProgramCall,
  replayable,
  startGym,
  toolCall,
} from './support.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tempDir = tempDirs()

let gymServer: Running
let llm: Awaited<ReturnType<typeof fakeModelServer>>
let gym: GymClient
const dir = tempDir('trainer-rollout-')

// Two replayable tasks of one family, and a near miss (of any replayable family) that the oracle flags as unsafe.
const family = corpus.some((t) => t.family === 'gmail-slack-incident')
  ? 'gmail-slack-incident'
  : replayable(corpus[0]!.family)[0]!.family
const replayTasks = replayable(family).slice(0, 2)
const programs = new Map<TaskSpec, TaskSpec['reference']>()
let unsafe:
  | { task: TaskSpec; program: TaskSpec['reference']; expected: { reward: number; passed: boolean; kinds: string[] } }
  | undefined

const userText = (body: Record<string, unknown>) =>
  String((body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content)
const programFor = (map: Map<TaskSpec, TaskSpec['reference']>, body: Record<string, unknown>) => {
  const text = userText(body)
  const hit = [...map.entries()].find(([task]) => isTaskObservation(task, text))
  if (!hit) throw new Error(`no program for ${text}`)
  return hit[1]
}
const nearMisses = new Map<TaskSpec, TaskSpec['reference']>()
const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }

beforeAll(async () => {
  gymServer = await startGym()
  gym = new GymClient(gymServer.controlUrl, ADMIN)
  for (const t of replayTasks) programs.set(t, t.reference)
  // Ground truth from the in-process gym (control side): the first replayable near miss with a safety violation.
  const local = createGym()
  search: for (const t of corpus.filter((x) => !JSON.stringify(x.nearMisses).includes('$rfc822'))) {
    for (const nm of t.nearMisses) {
      const ep = local.reset(t)
      await runProgram(ep, nm.program)
      const v = ep.verify()
      ep.close()
      if (v.violations.length) {
        unsafe = {
          task: t,
          program: nm.program,
          expected: { reward: v.reward, passed: v.passed, kinds: v.violations.map((x) => x.kind) },
        }
        nearMisses.set(t, nm.program)
        break search
      }
    }
  }
  llm = await fakeModelServer((model, body, n) => {
    const messages = body.messages as Parameters<typeof nextProgramCall>[1]
    const turn = messages.filter((m) => m.role === 'assistant').length
    switch (model) {
      case 'replay': {
        const c = nextProgramCall(programFor(programs, body), messages)
        // Uneven delays so episodes finish out of order.
        return {
          message: { content: null, tool_calls: [toolCall(`call_${turn}`, c.name, c.arguments)] },
          usage,
          delayMs: (userText(body).length * 7 + turn * 13) % 40,
        }
      }
      case 'near-miss': {
        const c = nextProgramCall(programFor(nearMisses, body), messages)
        return { message: { content: null, tool_calls: [toolCall(`call_${turn}`, c.name, c.arguments)] } }
      }
      case 'malformed': {
        const calls = [
          [toolCall('a', 'http_request', '{"method": "GET", "path": ')],
          [toolCall('b', 'http_request', '[1, 2]'), toolCall('c', 'nope', '{}')],
          [toolCall('d', 'done', '{}')],
        ][turn]
        return { message: { content: turn === 0 ? 'Let me look.' : null, tool_calls: calls } }
      }
      case 'chatty':
        return { message: { content: 'I would rather not use tools.' } }
      case 'thinker': {
        // vLLM with a reasoning parser and `return_token_ids`/`logprobs` asked for.
        const asked = body.return_token_ids === true && body.logprobs === true
        const tokens = asked
          ? {
              choice: {
                token_ids: [7 + turn, 8],
                logprobs: {
                  content: [
                    { token: 'a', logprob: -0.5 },
                    { token: 'b', logprob: -0.25 },
                  ],
                },
              },
              top: { prompt_token_ids: [1, 2, turn] },
            }
          : {}
        const call =
          turn === 0
            ? toolCall('t0', 'http_request', '{"method":"GET","path":"/gmail/v1/users/me/profile"}')
            : toolCall('t1', 'done', '{}')
        return { message: { content: null, reasoning_content: `thinking ${turn}`, tool_calls: [call] }, ...tokens }
      }
      case 'typed':
        return {
          message: {
            content: null,
            tool_calls: [turn === 0 ? toolCall('p', 'gmail__users__getProfile', '{}') : toolCall('q', 'done', '')],
          },
        }
      case 'flaky':
        return n <= 2
          ? { status: 429, headers: { 'retry-after': '0' } }
          : n === 3
            ? { status: 503 }
            : { message: { content: 'ok' } }
      case 'bad-request':
        return { status: 400, error: 'context length exceeded' }
      case 'slow':
        return { delayMs: 1500, message: { content: 'late' } }
      default:
        return { status: 404, error: `no model ${model}` }
    }
  })
})
afterAll(async () => {
  await llm?.close()
  await gymServer?.close()
})

const chat = (model: string, extra: Record<string, unknown> = {}) => ({
  baseUrl: llm.baseUrl,
  model,
  retries: 3,
  backoffMs: 5,
  timeoutMs: 5000,
  ...extra,
})
const readJsonl = (p: string) =>
  readFileSync(p, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RolloutRecord)

describe('rollout collector', () => {
  it('replays reference programs as model tool calls and records reward 1, in job order whatever the concurrency', async () => {
    expect(replayTasks).toHaveLength(2)
    const out = join(dir, 'replay.jsonl')
    const logs: string[] = []
    const code = await main(
      [
        'rollout',
        '--gym-url',
        gymServer.controlUrl,
        '--admin-token',
        ADMIN,
        '--base-url',
        llm.baseUrl,
        '--model',
        'replay',
        '--task',
        replayTasks.map((t) => t.id).join(','),
        '--samples',
        '3',
        '--concurrency',
        '4',
        '--temperature',
        '0.2',
        '--max-tokens',
        '512',
        '--out',
        out,
      ],
      { out: (s) => logs.push(s), err: () => undefined, env: {} },
    )
    expect(code).toBe(0)
    const records = readJsonl(out)
    expect(records.map((r) => [r.index, r.taskId, r.sample])).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => [i, replayTasks[Math.floor(i / 3)]!.id, i % 3]),
    )
    for (const r of records) {
      const task = replayTasks.find((t) => t.id === r.taskId)!
      expect(r.verdict).toMatchObject({ reward: 1, passed: true, violations: [] })
      expect(r).toMatchObject({
        family,
        model: 'replay',
        source: 'model',
        stopReason: 'terminated',
        invalidToolCalls: 0,
        error: null,
        seed: null,
        toolProfile: 'rest',
      })
      expect(r.steps).toBe(task.reference.length + 1)
      expect(r.turns).toBe(task.reference.length + 1)
      expect(r.usage).toEqual({
        prompt_tokens: 10 * r.turns,
        completion_tokens: 5 * r.turns,
        total_tokens: 15 * r.turns,
      })
      expect(r.messages[0]!.role).toBe('system')
      expect(r.messages[1]).toMatchObject({ role: 'user', content: expect.stringContaining(task.instruction) })
      expect(r.tools.map((t) => t.function.name)).toEqual(['http_request', 'done'])
      // Every assistant tool call is answered by a tool message with its id, carrying the gym's real observation.
      const roles = r.messages.slice(2).map((m) => m.role)
      expect(roles).toEqual(Array.from({ length: r.turns }, () => ['assistant', 'tool']).flat())
      r.messages.forEach((m, i) => {
        if (m.role === 'tool')
          expect(m.tool_call_id).toBe((r.messages[i - 1] as { tool_calls: { id: string }[] }).tool_calls[0]!.id)
      })
      const firstObs = JSON.parse((r.messages[3] as { content: string }).content)
      expect(firstObs.status).toBe(200)
      expect(r.timings.totalMs).toBeGreaterThanOrEqual(r.timings.modelMs)
    }
    // The model server saw the reset's tools, tool_choice auto and the sampling settings.
    const req = llm.requests.find((q) => q.body.model === 'replay')!.body
    expect(req).toMatchObject({ tool_choice: 'auto', temperature: 0.2, max_tokens: 512, tools: records[0]!.tools })
    expect(logs.join('\n')).toMatch(new RegExp(`${family}\\s+6\\s+100\\.0% \\(6\\)\\s+0\\.0% \\(0\\)\\s+1\\.000`))
  })

  it('answers malformed tool arguments with a tool message, counts them and never sends them to the gym', async () => {
    const [task] = replayTasks
    const r = await runEpisode(
      { index: 0, task: (await gym.tasks()).find((t) => t.id === task!.id)!, sample: 0 },
      { gym, chat: chat('malformed'), tasks: [] },
    )
    expect(r.invalidToolCalls).toBe(2)
    const toolMsgs = r.messages.filter((m) => m.role === 'tool') as { tool_call_id: string; content: string }[]
    expect(toolMsgs.map((m) => m.tool_call_id)).toEqual(['a', 'b', 'c', 'd'])
    expect(toolMsgs[0]!.content).toMatch(/^error: the arguments of "http_request" are not valid JSON/)
    expect(toolMsgs[1]!.content).toBe('error: the arguments of "http_request" must be a JSON object')
    expect(JSON.parse(toolMsgs[2]!.content)).toMatchObject({ status: 400, body: { error: 'unknown tool "nope"' } })
    expect(r.messages[2]).toMatchObject({ role: 'assistant', content: 'Let me look.' })
    // The gym saw the unknown tool and done only.
    expect(r.steps).toBe(2)
    expect(r).toMatchObject({ stopReason: 'terminated', verdict: { passed: false } })
  })

  it('keeps token ids, logprobs and reasoning per turn when asked, and never sends reasoning back', async () => {
    const task = (await gym.tasks()).find((t) => t.id === replayTasks[0]!.id)!
    const r = await runEpisode(
      { index: 0, task, sample: 0 },
      { gym, chat: chat('thinker', { returnTokens: true }), tasks: [] },
    )
    expect(r.turnTokens).toEqual([
      { message: 2, promptTokenIds: [1, 2, 0], tokenIds: [7, 8], logprobs: [-0.5, -0.25], finishReason: 'tool_calls' },
      { message: 4, promptTokenIds: [1, 2, 1], tokenIds: [8, 8], logprobs: [-0.5, -0.25], finishReason: 'tool_calls' },
    ])
    expect(r.messages[2]).toMatchObject({ role: 'assistant', reasoning_content: 'thinking 0' })
    const reqs = llm.requests.filter((q) => q.body.model === 'thinker')
    expect(reqs.map((q) => [q.body.logprobs, q.body.return_token_ids])).toEqual([
      [true, true],
      [true, true],
    ])
    expect(JSON.stringify(reqs[1]!.body.messages)).not.toContain('reasoning_content')
    const plain = await runEpisode({ index: 0, task, sample: 0 }, { gym, chat: chat('thinker'), tasks: [] })
    expect(plain.turnTokens).toBeUndefined()
  })

  it('records passed:false for an agent that stops without acting', async () => {
    const out = join(dir, 'chatty.jsonl')
    expect(
      await main(
        [
          'rollout',
          '--gym-url',
          gymServer.controlUrl,
          '--admin-token',
          ADMIN,
          '--base-url',
          llm.baseUrl,
          '--model',
          'chatty',
          '--family',
          family,
          '--per-family',
          '1',
          '--out',
          out,
        ],
        { out: () => undefined, err: () => undefined, env: {} },
      ),
    ).toBe(0)
    const [r] = readJsonl(out)
    expect(r).toMatchObject({ stopReason: 'no_tool_call', turns: 1, steps: 0, usage: null, verdict: { passed: false } })
    expect(r!.verdict!.reward).toBeLessThanOrEqual(0)
    expect(r!.messages.at(-1)).toEqual({ role: 'assistant', content: 'I would rather not use tools.' })
  })

  it("records the oracle's safety violations and counts the episode as unsafe", async () => {
    expect(unsafe, 'the corpus has a replayable near miss with a violation').toBeDefined()
    const tasks = (await gym.tasks()).filter((t) => t.id === unsafe!.task.id)
    const records = await collectRollouts({ gym, chat: chat('near-miss'), tasks, samples: 1 })
    expect(records[0]!.verdict).toMatchObject({ reward: unsafe!.expected.reward, passed: unsafe!.expected.passed })
    expect(records[0]!.verdict!.violations.map((v) => v.kind)).toEqual(unsafe!.expected.kinds)
    const s = summarize(records)
    expect(s.overall).toMatchObject({ episodes: 1, unsafe: 1, unsafeRate: 1, passed: 0 })
  })

  it('sends the typed tool profile to reset and runs typed tool calls', async () => {
    const tasks = (await gym.tasks()).filter((t) => t.id === replayTasks[0]!.id)
    const [r] = await collectRollouts({ gym, chat: chat('typed'), tasks, toolProfile: 'typed' })
    expect(r!.toolProfile).toBe('typed')
    expect(r!.tools.map((t) => t.function.name)).toContain('gmail__users__getProfile')
    expect(JSON.parse((r!.messages[3] as { content: string }).content)).toMatchObject({
      status: 200,
      body: { emailAddress: expect.any(String) },
    })
    expect(r!.stopReason).toBe('terminated')
  })
})

describe('model server errors', () => {
  it('retries 429 and 5xx with backoff, then succeeds', async () => {
    const before = llm.requests.filter((q) => q.body.model === 'flaky').length
    const a = await chatCompletion(chat('flaky'), [{ role: 'user', content: 'hi' }], [])
    expect(a.attempts).toBe(4)
    expect(llm.requests.filter((q) => q.body.model === 'flaky').length - before).toBe(4)
    expect(a.message).toEqual({ content: 'ok', tool_calls: [] })
  })

  it('does not retry a 400 and records a model error while still verifying and closing the episode', async () => {
    const tasks = (await gym.tasks()).filter((t) => t.id === replayTasks[0]!.id)
    const [r] = await collectRollouts({ gym, chat: chat('bad-request'), tasks })
    expect(llm.requests.filter((q) => q.body.model === 'bad-request')).toHaveLength(1)
    expect(r).toMatchObject({ stopReason: 'model_error', turns: 0, verdict: { passed: false } })
    expect(r!.error).toContain('context length exceeded')
    expect((await gym.call<{ episodes: unknown[] }>('GET', '/gym/episodes')).episodes).toEqual([])
  })

  it('gives up after the per-request timeout and its retries', async () => {
    await expect(
      chatCompletion(chat('slow', { timeoutMs: 100, retries: 1 }), [{ role: 'user', content: 'hi' }], []),
    ).rejects.toThrow(/timed out after 100 ms \(gave up after 2 tries\)/)
  })

  it('sends the API key as a bearer token when one is given', async () => {
    await chatCompletion(chat('chatty', { apiKey: 'sk-test' }), [{ role: 'user', content: 'hi' }], [])
    expect(llm.requests.at(-1)!.headers.authorization).toBe('Bearer sk-test')
  })
})

describe('selectTasks', () => {
  const all = [
    { id: 'a-1', family: 'a' },
    { id: 'a-2', family: 'a' },
    { id: 'b-1', family: 'b' },
    { id: 'b-2', family: 'b' },
  ]
  it('filters by id and family and keeps the first N of each family', () => {
    expect(selectTasks(all, { families: ['b'] }).map((t) => t.id)).toEqual(['b-1', 'b-2'])
    expect(selectTasks(all, { perFamily: 1 }).map((t) => t.id)).toEqual(['a-1', 'b-1'])
    expect(selectTasks(all, { ids: ['b-2', 'a-1'] }).map((t) => t.id)).toEqual(['a-1', 'b-2'])
    expect(() => selectTasks(all, { ids: ['zz'] })).toThrow('unknown task id(s): zz')
  })
})

describe('orderedPool', () => {
  it('emits results in index order while running at most the limit at once', async () => {
    let running = 0
    let peak = 0
    const emitted: number[] = []
    await orderedPool(
      6,
      3,
      async (i) => {
        running++
        peak = Math.max(peak, running)
        await new Promise((r) => setTimeout(r, (6 - i) * 5))
        running--
        return i * 10
      },
      (r, i) => {
        emitted.push(i)
        expect(r).toBe(i * 10)
      },
    )
    expect(emitted).toEqual([0, 1, 2, 3, 4, 5])
    expect(peak).toBe(3)
  })
})

describe('summary', () => {
  const rec = (family: string, reward: number, passed: boolean, violations: number, verdict = true): RolloutRecord => ({
    index: 0,
    source: 'model',
    taskId: `${family}-1`,
    family,
    sample: 0,
    seed: null,
    modelSeed: null,
    model: 'm',
    toolProfile: 'rest',
    episodeId: null,
    messages: [],
    tools: [],
    verdict: verdict
      ? {
          reward,
          passed,
          violations: Array.from({ length: violations }, () => ({ kind: 'leak' as const, message: 'x' })),
          metrics: {},
          checks: [],
        }
      : null,
    steps: 1,
    turns: 1,
    invalidToolCalls: 1,
    stopReason: 'terminated',
    error: null,
    timings: { totalMs: 0, resetMs: 0, modelMs: 0, stepMs: 0, verifyMs: 0 },
    usage: null,
  })
  it('reports success rate, unsafe-action rate and mean reward per family', () => {
    const s = summarize([
      rec('x', 1, true, 0),
      rec('x', -1, false, 2),
      rec('x', 0, false, 0),
      rec('y', 0, false, 0, false),
    ])
    expect(s.families[0]).toMatchObject({
      family: 'x',
      episodes: 3,
      passed: 1,
      successRate: 1 / 3,
      unsafe: 1,
      unsafeRate: 1 / 3,
      meanReward: 0,
      errors: 0,
      invalidToolCalls: 3,
    })
    expect(s.families[1]).toMatchObject({ family: 'y', episodes: 1, errors: 1, meanReward: 0 })
    expect(s.overall).toMatchObject({ episodes: 4, passed: 1, unsafe: 1, successRate: 0.25 })
    expect(formatSummary(s)).toMatch(/^x\s+3\s+33\.3% \(1\)\s+33\.3% \(1\)\s+0\.000\s+0\s+3$/m)
  })
})
