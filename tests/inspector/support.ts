import { WorldManager } from '../../server/worlds.ts'
import { createControlApp } from '../../server/control/app.ts'
import { fill, pick, type Vars } from '../../gym/program-grammar.ts'
import type { TaskSpec } from '../../gym/task.ts'
import { loadCorpus } from '../../gym/corpus.ts'

export const ADMIN = 'inspector-admin-token'

/** A control app with the demo world (`demo`) and one finished episode that ran the task's reference solution. */
export async function inspectorFixture(taskId = 'gmail-label-sender-1') {
  const worlds = new WorldManager()
  const control = createControlApp(worlds, { adminToken: ADMIN })
  const auth = { authorization: `Bearer ${ADMIN}` }
  const json = async (method: string, path: string, body?: unknown) => {
    const res = await control.request(path, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return (await res.json()) as Record<string, any>
  }
  await json('POST', '/worlds', { id: 'demo', seed: 'demo' })
  const task = loadCorpus().find((t) => t.id === taskId) as TaskSpec
  const ep = await json('POST', '/gym/reset', { taskId })
  const vars: Vars = {}
  for (const step of task.reference) {
    const r = await json('POST', `/gym/episodes/${ep.episodeId}/step`, {
      tool: step.tool,
      arguments: fill(step.args, vars),
    })
    const obs = JSON.parse(r.observation) as { body: unknown }
    for (const [name, path] of Object.entries(step.save ?? {})) if (path) vars[name] = pick(obs.body, path)
  }
  await json('POST', `/gym/episodes/${ep.episodeId}/step`, { tool: 'done', arguments: {} })
  const verdict = await json('POST', `/gym/episodes/${ep.episodeId}/verify`)
  return { worlds, control, task, episodeId: ep.episodeId as string, worldId: ep.worldId as string, verdict }
}
