import { describe, expect, test } from 'vitest'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { createGym } from '../../gym/index.ts'
import { agentMcpApp } from '../../gym/agent-mcp.ts'
import { TaskSpec } from '../../gym/task.ts'
import { gmailReplyPo } from '../../tasks-lite/families/gmail-reply-po.ts'

// Hostile step-tool arguments from an agent under training (docs/decisions/0387): every one is an observation.

const base = TaskSpec.parse(gmailReplyPo.generate(3))
const task = { ...base, id: 'hostile-steps', seed: 'demo', actor: 'dan', services: ['gmail', 'drive'], maxSteps: 50 }

function episode() {
  const worlds = new WorldManager({})
  const gym = createGym({ worlds, app: createAgentApp(worlds), tasks: [task] })
  const ep = gym.reset(task)
  const token = worlds.credentials(ep.worldId).find((u) => u.id === 'dan')!.googleToken!
  const mcp = agentMcpApp(gym)
  let id = 0
  const step = async (args: Record<string, unknown>) => {
    const res = await mcp.request('/mcp', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name: 'http_request', arguments: args },
      }),
    })
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() }
  }
  return { ep, step }
}

describe('step tool: hostile http_request arguments', () => {
  test('a query that is not an object answers a 400 observation, never a plain-text 500', async () => {
    const { ep, step } = episode()
    const drives = JSON.parse(
      JSON.parse((await step({ method: 'GET', path: '/drive/v3/drives' })).text).result.content[0].text,
    )
    const driveId = drives.body.drives[0].id as string
    const body = { role: 'writer', type: 'user', emailAddress: 'erin@northwind.test' }
    // The reported bug: permissions.create on a shared drive by a member who is not its organizer, the query a string.
    for (const query of ['supportsAllDrives=true', 5, true, ['supportsAllDrives=true']]) {
      const r = await step({ method: 'POST', path: `/drive/v3/files/${driveId}/permissions`, query, body })
      expect(r.status, `${JSON.stringify(query)}: ${r.text}`).toBe(200)
      expect(r.type).toContain('json')
      const result = JSON.parse(r.text).result
      expect(result.isError).toBe(true)
      expect(JSON.parse(result.content[0].text)).toMatchObject({ status: 400 })
    }
    // Each was a step, recorded, and the episode goes on.
    expect(ep.steps).toBe(5)
    expect(ep.history).toHaveLength(5)
    const ok = await step({
      method: 'POST',
      path: `/drive/v3/files/${driveId}/permissions`,
      body,
      query: { supportsAllDrives: true },
    })
    expect(JSON.parse(JSON.parse(ok.text).result.content[0].text).status).toBe(403)
  })
})
