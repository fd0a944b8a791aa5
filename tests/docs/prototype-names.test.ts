import { expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// A batchUpdate request kind named like an Object.prototype member ({"constructor": {}}, {"__proto__": {}}) is an
// unknown field (400), as any unknown kind: it once ran Object as a handler (200, the document's internals echoed
// as a reply) or answered 500.

test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('requests: [{%s: {}}] is 400', async (kind) => {
  const h = harness()
  const created = await h.call('POST', '/v1/documents', { json: { title: 'Plan' } })
  expect(created.status).toBe(200)
  const id = created.body.documentId as string
  // A raw body: a JS literal `{ __proto__: {} }` would set the prototype, not send the key.
  const res = await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
    body: `{"requests":[{"${kind}":{}}]}`,
    headers: { 'content-type': 'application/json' },
  })
  expect([res.status, res.body.error?.message]).toEqual([
    400,
    `Invalid JSON payload received. Unknown name "${kind}" at 'requests[0]': Cannot find field.`,
  ])
  const after = await h.call('GET', `/v1/documents/${id}`)
  expect(after.body.revisionId).toBe(created.body.revisionId)
})
