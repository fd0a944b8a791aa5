import { afterAll, describe, expect, it } from 'vitest'
import { createGym, runProgram } from '../../gym/index.ts'
import { truncateObservation } from '../../gym/episode.ts'
import { TaskSpec } from '../../gym/task.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'
import { driveLockdown } from '../../tasks-lite/families/drive-lockdown.ts'

const task = TaskSpec.parse(gmailReplyPo.generate(4))
const gym = createGym({ tasks: [task] })
afterAll(() => gym.worlds.close())

describe('http_request credentials', () => {
  it('a call that brings its own access_token is sent with that credential only', async () => {
    const ep = gym.reset(task.id)
    const other = gym.worlds.credentials(ep.worldId).find((u) => u.id !== task.actor && u.googleToken)!
    const mine = await ep.call({
      tool: 'http_request',
      arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' },
    })
    const theirs = await ep.call({
      tool: 'http_request',
      arguments: {
        method: 'GET',
        path: '/gmail/v1/users/me/profile',
        query: { access_token: other.googleToken },
      },
    })
    expect((mine.body as { emailAddress: string }).emailAddress).toBe(ep.credentials().email)
    expect((theirs.body as { emailAddress: string }).emailAddress).toBe(other.email)
    ep.close()
  })
})

describe('gym reset', () => {
  it('clones the task world and returns instruction, tools and credentials', () => {
    const ep = gym.reset(task.id)
    expect(ep.instruction).toBe(task.instruction)
    expect(ep.tools.map((t) => t.function.name)).toEqual(['http_request', 'done'])
    expect(ep.credentials().googleToken).toMatch(/\S/)
    expect(gym.worlds.find(ep.worldId)).toBeDefined()
    ep.close()
    expect(gym.worlds.find(ep.worldId)).toBeUndefined()
  })

  it('gives concurrent episodes independent worlds', async () => {
    const a = gym.reset(task.id)
    const b = gym.reset(task.id)
    await runProgram(a, task.reference)
    expect(a.verify().passed).toBe(true)
    expect(b.verify().passed).toBe(false)
    a.close()
    b.close()
  })
})

describe('gym step', () => {
  it('returns the API response as the observation and logs the call', async () => {
    const ep = gym.reset(task.id)
    const r = await ep.step({ tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } })
    expect(JSON.parse(r.observation)).toMatchObject({ status: 200, body: { emailAddress: ep.credentials().email } })
    expect(r).toMatchObject({ terminated: false, truncated: false, info: { step: 1, status: 200 } })
    expect(ep.actions().map((a) => a.operationId)).toEqual(['gmail.users.getProfile'])
    ep.close()
  })

  it('truncates long observations with a marker', async () => {
    const ep = gym.reset({ ...task, maxObservationChars: 300 })
    const r = await ep.step({
      tool: 'http_request',
      arguments: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { maxResults: 50 } },
    })
    expect(r.observation.length).toBeLessThanOrEqual(300)
    expect(r.observation).toMatch(/…\[truncated: \d+ of \d+ chars omitted\]$/)
    expect(truncateObservation('short', 300)).toBe('short')
    ep.close()
  })

  it('reports truncated once max steps are used and refuses further steps', async () => {
    const ep = gym.reset({ ...task, maxSteps: 2 })
    const call = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } }
    expect((await ep.step(call)).truncated).toBe(false)
    expect((await ep.step(call)).truncated).toBe(true)
    const over = await ep.step(call)
    expect(over.info.error).toBe('episode is over')
    expect(ep.actions()).toHaveLength(2)
    ep.close()
  })

  it('terminates on the done tool', async () => {
    const ep = gym.reset(task.id)
    expect((await ep.step({ tool: 'done', arguments: {} })).terminated).toBe(true)
    ep.close()
  })

  it('answers unknown tools and bad arguments with a 400 observation, not a throw', async () => {
    const ep = gym.reset(task.id)
    expect(JSON.parse((await ep.step({ tool: 'nope' })).observation).status).toBe(400)
    expect(JSON.parse((await ep.step({ tool: 'http_request', arguments: { method: 'GET' } })).observation).status).toBe(
      400,
    )
    ep.close()
  })
})

describe('typed tool profile', () => {
  it('offers one tool per registered method and routes calls by method id', async () => {
    const ep = gym.reset({ ...task, toolProfile: 'typed' })
    const names = ep.tools.map((t) => t.function.name)
    expect(names).toContain('gmail__users__messages__list')
    expect(names).toContain('gmail__users__messages__send')
    expect(names.some((n) => n.startsWith('drive__'))).toBe(false)
    const send = ep.tools.find((t) => t.function.name === 'gmail__users__messages__send')!
    expect(send.function.parameters).toMatchObject({ type: 'object', properties: { requestBody: { type: 'object' } } })
    const r = await ep.step({ tool: 'gmail__users__messages__list', arguments: { q: 'PO', maxResults: 1 } })
    const obs = JSON.parse(r.observation)
    expect(obs.status).toBe(200)
    expect(obs.body.messages).toHaveLength(1)
    ep.close()
  })

  it('fills path parameters and reaches Drive', async () => {
    const t = TaskSpec.parse({ ...driveLockdown.generate(1), toolProfile: 'typed' })
    const ep = gym.reset(t)
    const name = (t.oracle.params as { folderName: string }).folderName
    const found = await ep.step({ tool: 'drive__files__list', arguments: { q: `name = '${name}'` } })
    const folder = JSON.parse(found.observation).body.files[0].id as string
    const r = await ep.step({ tool: 'drive__permissions__list', arguments: { fileId: folder } })
    expect(JSON.parse(r.observation).body.permissions.some((p: { type: string }) => p.type === 'anyone')).toBe(true)
    const missing = await ep.step({ tool: 'drive__permissions__list', arguments: {} })
    expect(JSON.parse(missing.observation)).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/fileId/) },
    })
    ep.close()
  })
})
