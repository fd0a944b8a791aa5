import { describe, expect, it } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { docs } from '../../envs/docs/index.ts'

const seed = {
  name: 'docs-state',
  now: '2026-03-02T14:00:00Z',
  users: [{ id: 'alice', email: 'alice@northwind.test', name: 'Alice Moreno' }],
}
const edits = {
  requests: [
    { insertText: { location: { index: 1 }, text: 'Alpha beta' } },
    { createNamedRange: { name: 'a', range: { startIndex: 1, endIndex: 6 } } },
    { createHeader: { type: 'DEFAULT' } },
  ],
}

async function scripted() {
  const h = harness(seed)
  const id = (await h.call('POST', '/v1/documents', { json: { title: 'Doc' } })).body.documentId
  const res = await h.call('POST', `/v1/documents/${id}:batchUpdate`, { json: edits })
  return { h, id, res }
}

describe('docs state: snapshot, restore and determinism', () => {
  it('restoring a snapshot brings back the document and its revision', async () => {
    const { h, id } = await scripted()
    const snap = h.entry.world.snapshot()
    const before = docs.dump(h.entry.world)
    await h.call('POST', `/v1/documents/${id}:batchUpdate`, {
      json: { requests: [{ deleteContentRange: { range: { startIndex: 1, endIndex: 7 } } }] },
    })
    expect(docs.dump(h.entry.world)).not.toEqual(before)
    h.entry.world.restore(snap)
    expect(docs.dump(h.entry.world)).toEqual(before)
    const doc = await h.call('GET', `/v1/documents/${id}`)
    expect(doc.body.body.content[1].paragraph.elements[0].textRun.content).toBe('Alpha beta\n')
  })

  it('the same seed and the same requests give the same ids, revisions and state', async () => {
    const a = await scripted()
    const b = await scripted()
    expect(a.id).toBe(b.id)
    expect(a.res.body).toEqual(b.res.body)
    expect(docs.dump(a.h.entry.world)).toEqual(docs.dump(b.h.entry.world))
  })
})
