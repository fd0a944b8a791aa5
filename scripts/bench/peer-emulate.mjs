// Child process of `npm run bench -- --peer`: the peer (`emulate@0.12.2`) serving Google and Slack on loopback
// ports, plain JavaScript (no TypeScript loader in its memory). Prints one JSON line with its URLs and token; each
// line `store` on stdin starts one more pair (a fresh store each, same seed) and prints its line the same way.
// Its arguments: the tokens to seed, all of the same user (peerTokens in peer.ts; `bench-token` without any).
import { createEmulator } from 'emulate'

const login = { login: 'testuser@gmail.com' }
const names = process.argv.length > 2 ? process.argv.slice(2) : ['bench-token']
const tokens = Object.fromEntries(names.map((name) => [name, login]))
const seed = { tokens }
const loopback = (url) => Object.assign(new URL(url), { hostname: '127.0.0.1' }).origin

async function pair() {
  const google = await createEmulator({ service: 'google', port: 0, hostname: '127.0.0.1', seed })
  const slack = await createEmulator({ service: 'slack', port: 0, hostname: '127.0.0.1', seed })
  console.log(JSON.stringify({ google: loopback(google.url), slack: loopback(slack.url), token: names[0] }))
}

await pair()
let pending = ''
let queue = Promise.resolve()
process.stdin.on('data', (d) => {
  pending += d.toString()
  const lines = pending.split('\n')
  pending = lines.pop()
  for (const line of lines) if (line.trim() === 'store') queue = queue.then(pair)
})
