// Child process of `npm run bench -- --peer`: serves one side of the side-by-side comparison on a loopback port,
// so that each server's CPU time and memory are its own. Argument: `ours` or `peer` (the `emulate` package).
// Protocol over IPC: sends { ready, google, slack, googleToken, slackToken } once listening, answers 'usage' with
// { cpuMs, rss } (CPU time since start, resident memory), and exits on 'exit'.
import type { AddressInfo } from 'node:net'

const side = process.argv[2]
const SEED = {
  name: 'bench-peer',
  users: [{ id: 'me', email: 'testuser@gmail.com', name: 'Test User' }],
  slack: { channels: [{ name: 'general', members: 'all' }] },
}

type Ready = { google: string; slack: string; googleToken: string; slackToken: string }

async function ours(): Promise<Ready> {
  const { serve } = await import('@hono/node-server')
  const { WorldManager } = await import('../../server/worlds.ts')
  const { createAgentApp } = await import('../../server/app.ts')
  const worlds = new WorldManager()
  const entry = worlds.create({ seed: SEED, seedValue: 1 })
  const app = createAgentApp(worlds)
  const user = worlds.credentials(entry.id)[0]!
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((r) => server.once('listening', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { google: url, slack: url, googleToken: user.googleToken!, slackToken: user.slackUserToken! }
}

async function peer(): Promise<Ready> {
  const name = 'emulate' // a variable, so that type checking does not need the optional package
  const { createEmulator } = (await import(name)) as {
    createEmulator: (o: Record<string, unknown>) => Promise<{ url: string }>
  }
  const seed = { tokens: { 'bench-token': { login: 'testuser@gmail.com' } } }
  const google = await createEmulator({ service: 'google', port: 0, hostname: '127.0.0.1', seed })
  const slack = await createEmulator({ service: 'slack', port: 0, hostname: '127.0.0.1', seed })
  const loopback = (url: string) => Object.assign(new URL(url), { hostname: '127.0.0.1' }).origin
  const token = 'bench-token'
  return { google: loopback(google.url), slack: loopback(slack.url), googleToken: token, slackToken: token }
}

const ready = side === 'peer' ? await peer() : await ours()
const start = process.cpuUsage()
process.on('message', (m) => {
  if (m === 'exit') process.exit(0)
  if (m === 'usage') {
    const cpu = process.cpuUsage(start)
    global.gc?.()
    process.send!({ cpuMs: (cpu.user + cpu.system) / 1000, rss: process.memoryUsage().rss })
  }
})
process.send!({ ready: true, ...ready })
