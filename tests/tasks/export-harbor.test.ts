import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startServer, type Running } from '../../server/main.ts'
import { loadCorpus } from '../../gym/corpus.ts'
import { runProgram } from '../../gym/program.ts'
import { exportHarbor } from '../../gym/export-harbor.ts'
import { main, selectTasks } from '../../gym/tasks-cli.ts'
import type { TaskSpec } from '../../gym/task.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tmp = tempDirs()
const ADMIN = 'harbor-test-token'
const corpus = loadCorpus()
const two = ['gmail-label-sender-1', 'slack-pin-final-2'].map((id) => corpus.find((t) => t.id === id)!)
// An answer task: the agent writes its answer to a file, and test.sh submits it as the `done` step.
const answerTask = corpus.find((t) => t.id === 'gmail-search-answer-1')
const hasTools = ['bash', 'curl'].every((c) => spawnSync('sh', ['-c', `command -v ${c}`]).status === 0)

describe('wsgym tasks export --format harbor', () => {
  it('writes one Harbor task directory per task with task.toml, instruction.md, environment/ and tests/test.sh', () => {
    const dir = tmp('harbor-')
    const written = exportHarbor(two, dir, { adminToken: ADMIN })
    expect(written.map((d) => d.slice(dir.length + 1))).toEqual(two.map((t) => t.id))
    for (const t of two) {
      const root = join(dir, t.id)
      const toml = readFileSync(join(root, 'task.toml'), 'utf8')
      expect(toml).toMatch(/^version = "1.0"$/m)
      expect(toml).toContain(`task_id = "${t.id}"`)
      expect(toml).toContain(`family = "${t.family}"`)
      expect(toml).toContain(`split = "${t.split}"`)
      expect(toml).toContain(`tier = "${t.difficulty}"`)
      expect(toml).toContain(`services = [${t.services.map((s) => `"${s}"`).join(', ')}]`)
      expect(toml).toMatch(/^\[verifier\]\ntimeout_sec = \d+\.\d$/m)
      expect(toml).toMatch(/^\[agent\]\ntimeout_sec = \d+\.\d$/m)
      const instruction = readFileSync(join(root, 'instruction.md'), 'utf8')
      expect(instruction.startsWith(t.instruction)).toBe(true)
      expect(instruction).toContain('/shared/episode.json')
      // Nothing the agent sees carries the admin token or the task's solution.
      expect(instruction).not.toContain(ADMIN)
      expect(readFileSync(join(root, 'environment', 'Dockerfile'), 'utf8')).not.toContain(ADMIN)
      const start = readFileSync(join(root, 'environment', 'start-episode.sh'), 'utf8')
      expect(start).toContain('npx wsgym serve')
      expect(start).toContain(`{"taskId": "${t.id}"}`)
      const compose = readFileSync(join(root, 'environment', 'docker-compose.yaml'), 'utf8')
      expect(compose).toContain(`WSGYM_ADMIN_TOKEN: "${ADMIN}"`)
      const test = readFileSync(join(root, 'tests', 'test.sh'), 'utf8')
      expect(test).toContain('/gym/episodes/$episode/verify')
      expect(statSync(join(root, 'tests', 'test.sh')).mode & 0o111).not.toBe(0)
      for (const v of Object.values(t.oracle.params)) {
        if (typeof v === 'string' && v.length > 6) expect(test).not.toContain(v)
      }
    }
  })

  it.skipIf(!hasTools)('gives answer tasks a helper that turns the answer file into a JSON string', async () => {
    const dir = tmp('harbor-answer-')
    const t = { ...two[0]!, id: 'answer-probe-1', tags: ['answer'] }
    exportHarbor([t], dir, { adminToken: ADMIN })
    expect(readFileSync(join(dir, t.id, 'tests', 'test.sh'), 'utf8')).toContain('"tool\\":\\"done')
    expect(readFileSync(join(dir, t.id, 'instruction.md'), 'utf8')).toContain('/shared/answer.txt')
    const tricky = 'Tue 3 "PM" \\ back\tslash\nline two\u0001'
    const input = join(dir, 'answer.txt')
    writeFileSync(input, tricky)
    const helper = join(dir, t.id, 'tests', 'json-string.sh')
    const { stdout } = await promisify(execFile)('bash', ['-c', `bash ${helper} < ${input}`])
    expect(JSON.parse(stdout)).toBe(tricky.replace('\u0001', ''))
  })

  it('selects by split and family through the CLI and refuses unknown ones', async () => {
    const testSplit = corpus.filter((t) => t.split === 'test' && t.family === 'gmail-reply-po')
    expect(selectTasks(corpus, 'test', 'gmail-reply-po')).toEqual(testSplit)
    expect(selectTasks(corpus, 'holdout')).toMatch(/unknown split/)
    expect(selectTasks(corpus, undefined, 'no-such-family')).toMatch(/unknown family/)
    const dir = tmp('harbor-cli-')
    const log = console.log
    console.log = () => undefined
    try {
      const args = ['export', '--format', 'harbor', dir, '--family', 'gmail-reply-po', '--split', 'dev']
      expect(await main(args, () => corpus)).toBe(0)
      expect(await main(['export', '--format', 'zip', dir], () => corpus)).toBe(2)
    } finally {
      console.log = log
    }
    const want = corpus.filter((t) => t.family === 'gmail-reply-po' && t.split === 'dev').map((t) => t.id)
    expect(want.length).toBeGreaterThan(0)
    for (const id of want) expect(existsSync(join(dir, id, 'tests', 'test.sh')), id).toBe(true)
  }, 30_000)
})

describe.skipIf(!hasTools)('Harbor tests/test.sh against a live gym (needs bash and curl)', () => {
  let server: Running
  let dir: string
  beforeAll(async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, controlPort: 0, adminToken: ADMIN, worlds: [] })
    dir = tmp('harbor-live-')
    exportHarbor([...two, ...(answerTask ? [answerTask] : [])], dir, { adminToken: ADMIN })
  })
  afterAll(async () => server?.close())

  const control = (path: string, init: RequestInit = {}) =>
    fetch(`${server.controlUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    })

  /** Resets the task as start-episode.sh does, writes the session file, and optionally solves it over REST. */
  async function session(t: TaskSpec, solve: boolean) {
    const res = await control('/gym/reset', { method: 'POST', body: JSON.stringify({ taskId: t.id }) })
    expect(res.status).toBe(201)
    const text = await res.text()
    type Session = { episodeId: string; baseUrls: { google: string }; tokens: { google: string; slack: string } }
    const ep = JSON.parse(text) as Session
    const file = join(dir, `${t.id}.episode.json`)
    writeFileSync(file, text)
    if (solve) {
      // What an agent in Harbor does: plain REST calls with the session's tokens (no gym step in between).
      const call = async (a: { arguments?: Record<string, unknown> }) => {
        const h = a.arguments as { method: string; path: string; query?: Record<string, string>; body?: unknown }
        const qs = new URLSearchParams(h.query ?? {})
        const token = h.path.startsWith('/api/') ? ep.tokens.slack : ep.tokens.google
        const r = await fetch(`${ep.baseUrls.google}${h.path}${qs.size ? `?${qs}` : ''}`, {
          method: h.method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(h.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: h.body === undefined ? undefined : JSON.stringify(h.body),
        })
        const body = await r.text()
        return { status: r.status, text: body, body: body ? JSON.parse(body) : null }
      }
      const agent = { call, steps: 0, answer: null as string | null }
      await runProgram(agent, t.reference)
      if (agent.answer !== null) writeFileSync(join(dir, `${t.id}.answer.txt`), agent.answer)
    }
    return file
  }

  const runTest = async (t: TaskSpec, episodeFile: string) => {
    const logs = join(dir, `${t.id}.logs`)
    const env = { ...process.env, WSGYM_CONTROL_URL: server.controlUrl, WSGYM_EPISODE_FILE: episodeFile }
    Object.assign(env, { WSGYM_REWARD_DIR: logs, WSGYM_ANSWER_FILE: join(dir, `${t.id}.answer.txt`) })
    const file = join(logs, 'reward.txt')
    const reward = () => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '')
    try {
      // Async: the server runs in this process, so a blocking child call would starve it.
      await promisify(execFile)('bash', [join(dir, t.id, 'tests', 'test.sh')], { env, timeout: 60_000 })
      return { code: 0, reward: reward() }
    } catch (e) {
      return { code: (e as { code?: number }).code ?? -1, reward: reward() }
    }
  }

  it('exits 0 and writes reward 1 for an episode solved by the reference', async () => {
    for (const t of two) {
      expect(await runTest(t, await session(t, true)), t.id).toEqual({ code: 0, reward: '1' })
    }
  }, 120_000)

  it('exits non-zero for an untouched (no-op) episode', async () => {
    for (const t of two) {
      const r = await runTest(t, await session(t, false))
      expect(r.code, t.id).not.toBe(0)
      expect(Number(r.reward), t.id).toBeLessThanOrEqual(0)
    }
  }, 120_000)

  it.skipIf(!answerTask)(
    "submits an answer task's answer file and passes only the right answer",
    async () => {
      const t = answerTask!
      expect(t.tags).toContain('answer')
      expect(await runTest(t, await session(t, true))).toEqual({ code: 0, reward: '1' })
      const file = await session(t, false)
      writeFileSync(join(dir, `${t.id}.answer.txt`), 'I could not find it.')
      const r = await runTest(t, file)
      expect(r.code).not.toBe(0)
      expect(Number(r.reward)).toBeLessThan(1)
    },
    120_000,
  )

  it("refuses a session file that points at another task's solved episode", async () => {
    const [a, b] = two as [TaskSpec, TaskSpec]
    const r = await runTest(b, await session(a, true))
    expect(r).toEqual({ code: 1, reward: '0' })
  }, 120_000)

  it('fails without reward when the control token is wrong', async () => {
    const t = two[0]!
    const file = await session(t, true)
    const env = {
      ...process.env,
      WSGYM_CONTROL_URL: server.controlUrl,
      WSGYM_EPISODE_FILE: file,
      WSGYM_ADMIN_TOKEN: 'guess',
      WSGYM_REWARD_DIR: join(dir, 'bad.logs'),
    }
    const run = promisify(execFile)('bash', [join(dir, t.id, 'tests', 'test.sh')], { env })
    await expect(run).rejects.toMatchObject({ code: 1 })
  }, 60_000)
})
