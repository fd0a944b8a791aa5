// Child process of `npm run bench -- --peer`: the peer (`emulate@0.12.2`) serving Google and Slack on loopback
// ports, plain JavaScript (no TypeScript loader in its memory). Prints one JSON line with its URLs and token; each
// line `store` on stdin starts one more pair (a fresh store each, same seed) and prints its line the same way.
// argv[2]: how many tokens to seed (`bench-token`, then `bench-token-1`, …), all the same user: the peer answers
// 403 after 5,000 calls per token per hour, so the bench changes token as it goes (peerToken in peer.ts).
import { createEmulator } from 'emulate'

const count = Math.max(1, Number(process.argv[2] ?? 1))
const login = { login: 'testuser@gmail.com' }
const tokens = Object.fromEntries(
  Array.from({ length: count }, (_, k) => [k ? `bench-token-${k}` : 'bench-token', login]),
)
const seed = { tokens }
const loopback = (url) => Object.assign(new URL(url), { hostname: '127.0.0.1' }).origin

async function pair() {
  const google = await createEmulator({ service: 'google', port: 0, hostname: '127.0.0.1', seed })
  const slack = await createEmulator({ service: 'slack', port: 0, hostname: '127.0.0.1', seed })
  console.log(JSON.stringify({ google: loopback(google.url), slack: loopback(slack.url), token: 'bench-token' }))
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
