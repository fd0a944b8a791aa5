import { afterAll, describe, expect, it } from 'vitest'
import { WorldManager } from '../../server/worlds.ts'
import { gymRouter } from '../../gym/http.ts'
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'

const task = TaskSpec.parse(gmailReplyPo.generate(2))
const worlds = new WorldManager()
const gym = createGym({ worlds, tasks: [task] })
const control = gymRouter(worlds, { agentBaseUrl: 'http://agent.test:8080', gym })
afterAll(() => worlds.close())

const call = async (method: string, path: string, json?: unknown) => {
  const headers: Record<string, string> = json ? { 'content-type': 'application/json' } : {}
  const res = await control.request(path, { method, headers, body: json ? JSON.stringify(json) : undefined })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

describe('final answer on the done step', () => {
  it('is offered in the done tool, stored on the episode and kept in its history', async () => {
    const { body: ep } = await call('POST', '/gym/reset', { taskId: task.id })
    const tools = await call('GET', `/gym/episodes/${ep.episodeId}/tools?format=openai`)
    expect(JSON.stringify(tools.body)).toContain('"answer"')
    expect((await call('GET', `/gym/episodes/${ep.episodeId}`)).body.answer).toBeNull()
    const d = await call('POST', `/gym/episodes/${ep.episodeId}/step`, {
      action: { tool: 'done', arguments: { answer: '3 pm' } },
    })
    expect(d.body).toMatchObject({ terminated: true })
    expect((await call('GET', `/gym/episodes/${ep.episodeId}`)).body.answer).toBe('3 pm')
    await call('DELETE', `/gym/episodes/${ep.episodeId}`)
  })
})
