import { createGym } from '../gym/index.ts'
import { TaskSpec } from '../gym/task.ts'
import { loadRouters } from '../server/routers.ts'
import { gmailReplyPo } from '../tasks-lite/families/gmail-reply-po.ts'
const task = TaskSpec.parse(gmailReplyPo.generate(1))
const list = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { maxResults: 5 } } }
const profile = { tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/profile' } }
await loadRouters()
const gym = createGym({ tasks: [task], reuseWorlds: process.env.REUSE === '1' })
const parts = { reset: 0, steps: 0, verify: 0, close: 0 }
const N = Number(process.argv[2] ?? 2000)
for (let k = 0; k < N; k++) {
  let t = performance.now()
  const ep = gym.reset(task)
  parts.reset += performance.now() - t; t = performance.now()
  for (let i = 0; i < 10; i++) await ep.step(i % 2 ? profile : list)
  parts.steps += performance.now() - t; t = performance.now()
  ep.verify()
  parts.verify += performance.now() - t; t = performance.now()
  ep.close()
  parts.close += performance.now() - t
  if (k === 199) for (const key of Object.keys(parts)) parts[key as keyof typeof parts] = 0
}
for (const [k, v] of Object.entries(parts)) console.log(k, (v / (N - 200)).toFixed(3), 'ms')
