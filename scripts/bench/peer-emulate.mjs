// Child process of `npm run bench -- --peer`: the peer (`emulate@0.12.2`) serving Google and Slack on loopback
// ports, plain JavaScript (no TypeScript loader in its memory). Prints one JSON line with its URLs and token.
import { createEmulator } from 'emulate'

const seed = { tokens: { 'bench-token': { login: 'testuser@gmail.com' } } }
const google = await createEmulator({ service: 'google', port: 0, hostname: '127.0.0.1', seed })
const slack = await createEmulator({ service: 'slack', port: 0, hostname: '127.0.0.1', seed })
const loopback = (url) => Object.assign(new URL(url), { hostname: '127.0.0.1' }).origin
console.log(JSON.stringify({ google: loopback(google.url), slack: loopback(slack.url), token: 'bench-token' }))
