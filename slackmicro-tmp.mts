import { createGym } from './gym/index.ts'
import { TaskSpec } from './gym/task.ts'
import { loadRouters } from './server/routers.ts'
await loadRouters()
import { slackThreadAnswer } from './tasks-lite/families/slack-thread-answer.ts'
const task = TaskSpec.parse(slackThreadAnswer.generate(3))
const gym = createGym({ tasks: [task] })
const ep = gym.reset(task)
const ch = (await ep.call({ tool: 'http_request', arguments: { method: 'GET', path: '/api/conversations.list' } })).body as any
const C = ch.channels[0].id
const acts: Record<string, any> = {
  post: (i: number) => ({ tool: 'http_request', arguments: { method: 'POST', path: '/api/chat.postMessage', body: { channel: C, text: `hello ${i}` } } }),
  hist: () => ({ tool: 'http_request', arguments: { method: 'GET', path: '/api/conversations.history', query: { channel: C, limit: 100 } } }),
  glist: () => ({ tool: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/messages', query: { q: 'from:alice@example.com subject:report' } } }),
}
const only = process.argv[2]?.split(',')
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
for (const round of [0, 1]) for (const [k, a] of Object.entries(acts)) {
  if (only && !only.includes(k)) continue
  const n = round ? Number(process.env.N ?? 2000) : 300
  const t = cpu()
  let st = 0
  for (let i = 0; i < n; i++) { const r = await ep.call(a(i)); st = r.status; if (st >= 300 || (r.body as any)?.ok === false) { console.log(k, JSON.stringify(r.body).slice(0, 200)); break } }
  if (round) console.log(k.padEnd(8), st, ((cpu() - t) * 1000 / n).toFixed(1), 'µs/call')
}
