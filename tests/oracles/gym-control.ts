import { afterAll } from 'vitest'
import { WorldManager } from '../../server/worlds.ts'
import { gymRouter } from '../../gym/http.ts'
import { createGym } from '../../gym/index.ts'
import type { TaskSpec } from '../../gym/task.ts'

/**
 * The control plane's gym routes over one task, for episodes driven through HTTP (`/gym/reset`, `/step`,
 * `/verify`); `call` posts JSON and reads the answer. The worlds close after the file's tests.
 */
export function gymControl(t: TaskSpec) {
  const worlds = new WorldManager()
  const control = gymRouter(worlds, { agentBaseUrl: 'http://agent.test:8080', gym: createGym({ worlds, tasks: [t] }) })
  afterAll(() => worlds.close())
  return async (path: string, json?: unknown) => {
    const res = await control.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json ?? {}),
    })
    return (await res.json()) as Record<string, any>
  }
}

/** Episodes of one answer task over the gym's HTTP routes: reset, `done` with the answer, verify; the reward. */
export function answerEpisodes(t: TaskSpec) {
  const call = gymControl(t)
  return async (answer: string) => {
    const ep = await call('/gym/reset', { taskId: t.id })
    await call(`/gym/episodes/${ep.episodeId}/step`, { tool: 'done', arguments: { answer } })
    return (await call(`/gym/episodes/${ep.episodeId}/verify`)).reward as number
  }
}

/** The answer families whose answer is a value (a time, a date, a number or an amount), not a name. */
export const VALUE_ANSWER_FAMILIES = [
  'calendar-freebusy-answer',
  'calendar-offsite-local-time',
  'slack-decision-answer',
  'gmail-thread-count-answer',
  'gmail-search-answer',
  'drive-docs-figure-answer',
]
