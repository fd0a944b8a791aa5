// Run as a child process (`node --import tsx`, its own module graph) by tests/docs/schemas-on-first-use.test.ts:
// serves on loopback, drives the steps that argv names over HTTP and prints, after each, its answer and whether
// any of Docs' generated schemas has been built (each registers its name with `.openapi()`).
import { z } from '@hono/zod-openapi'

const named = new Set<string>()
const openapi = z.ZodType.prototype.openapi
z.ZodType.prototype.openapi = function (this: z.ZodType, ...args: unknown[]) {
  if (typeof args[0] === 'string') named.add(args[0])
  return (openapi as (...a: unknown[]) => unknown).apply(this, args)
} as typeof openapi

const ADMIN = { authorization: 'Bearer test-admin', 'content-type': 'application/json' }
const users = [{ id: 'me', email: 'me@example.com', name: 'Me' }]
const seeds: Record<string, Record<string, unknown>> = {
  plain: { name: 'plain', users, slack: { channels: [{ name: 'general', members: 'all' }] } },
  documents: {
    name: 'documents',
    users,
    docs: {
      documents: [
        {
          title: 'Plan',
          owner: 'me',
          content: ['Intro'],
          requests: [{ insertText: { location: { index: 1 }, text: 'Hi ' } }],
        },
      ],
    },
  },
}

const { startServer } = await import('../../server/main.ts')
const server = await startServer({ host: '127.0.0.1', port: 0, controlPort: 0, adminToken: 'test-admin', worlds: [] })
let token = ''
const steps: Record<string, () => Promise<Response>> = {
  plain: () => createWorld('plain'),
  documents: () => createWorld('documents'),
  gmail: () => agent('GET', '/gmail/v1/users/me/labels'),
  badBatch: async () => {
    const doc = (await (await agent('POST', '/v1/documents', { title: 't' })).json()) as { documentId: string }
    const requests = [{ insertText: { location: { index: 'x' } } }]
    return agent('POST', `/v1/documents/${doc.documentId}:batchUpdate`, { requests })
  },
}
async function createWorld(seed: string) {
  const body = JSON.stringify({ id: seed, seed: seeds[seed] })
  const res = await fetch(`${server.controlUrl}/worlds`, { method: 'POST', headers: ADMIN, body })
  token = ((await res.clone().json()) as { users: { googleToken: string }[] }).users[0]!.googleToken
  return res
}
function agent(method: string, path: string, body?: unknown) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const json = body === undefined ? undefined : JSON.stringify(body)
  return fetch(`${server.agentUrl}${path}`, { method, headers, body: json })
}
try {
  for (const step of process.argv.slice(2)) {
    const res = await steps[step]!()
    const docsBuilt = named.has('BatchUpdateDocumentRequest') && named.has('InsertTextRequest')
    const answer = { step, status: res.status, body: await res.text() }
    console.log(JSON.stringify({ ...answer, docsBuilt, anyBuilt: named.size > 0 }))
  }
} finally {
  await server.close()
}
