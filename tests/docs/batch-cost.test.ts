import { describe, expect, it } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { indexStats } from '../../envs/docs/model/block-index.ts'
import { workStats } from '../../envs/docs/model/work.ts'
import { applyRequests, checkRequests, MAX_BATCH_WORK, MAX_STORED_DOCUMENT } from '../../envs/docs/requests/apply.ts'
import { engine } from './engine.ts'

// What one batchUpdate costs the single server thread (docs/decisions/0377): requests locate indexes through a block
// index kept during the batch instead of walking every block before them, a batch has a work budget, and a
// document's stored form has a maximum size. Counted in units and blocks measured, never timed.

const DOC = '1SualoSl_jgWOy1mgYBc_k5veqX3xeZ8w' // "Q4 Product Roadmap" of the demo seed
const atEnd = (n: number) => Array.from({ length: n }, () => ({ insertText: { text: 'q', endOfSegmentLocation: {} } }))

/** Work units and blocks measured by one batch on an engine. */
function cost(e: ReturnType<typeof engine>, requests: Record<string, unknown>[]) {
  const measured = indexStats.measured
  applyRequests(e.ctx, checkRequests(requests), 1e15)
  return { units: workStats.lastSpent, measured: indexStats.measured - measured }
}

describe('docs.documents.batchUpdate cost', () => {
  it('measures each block once per batch, however many requests locate indexes at the end', () => {
    const e = engine()
    e.apply({ insertText: { text: 'para\n'.repeat(5_000), location: { index: 1 } } })
    const one = cost(e, atEnd(1))
    const many = cost(e, atEnd(200))
    expect(one.measured).toBeGreaterThanOrEqual(5_000)
    // Walking the body for each request measured 200 × 5,000 blocks more; the index measures only edited blocks.
    expect(many.measured - one.measured).toBeLessThan(1_000)
  })

  it('charges a batch far less than one walk of the body per request', () => {
    const perRequest = (paragraphs: number) => {
      const e = engine()
      e.apply({ insertText: { text: 'para\n'.repeat(paragraphs), location: { index: 1 } } })
      const requests = [
        ...atEnd(20),
        { insertText: { text: 'x\ny', location: { index: 7 } } },
        { deleteContentRange: { range: { startIndex: 3, endIndex: 12 } } },
        { insertTable: { rows: 2, columns: 2, endOfSegmentLocation: {} } },
        { updateTextStyle: { range: { startIndex: 2, endIndex: 4 }, textStyle: { bold: true }, fields: 'bold' } },
      ]
      return cost(e, requests).units
    }
    const small = perRequest(1_000)
    const large = perRequest(20_000)
    // A walk charges 2 units per paragraph (the block and its one run); walking the body for each of the 24 requests
    // would add 48 per extra paragraph. What grows is only the index's arrays (moved or summed again after an edit
    // near the start, charged 1/8 or 1/4 unit per entry): 19,000 extra paragraphs add about 19,000.
    expect((large - small) / 19_000).toBeLessThan(2)
  })

  it('gives the same document whether requests run in one batch or one per batch', () => {
    const seed = Array.from({ length: 30 }, (_, i) => ({ text: `Paragraph ${i} with some words in it` }))
    const requests: Record<string, unknown>[] = [
      { insertText: { text: 'one\ntwo\nthree', location: { index: 40 } } },
      { insertText: { text: 'tail', endOfSegmentLocation: {} } },
      { deleteContentRange: { range: { startIndex: 5, endIndex: 80 } } },
      { insertTable: { rows: 2, columns: 3, location: { index: 100 } } },
      { insertText: { text: 'in a cell\nand more', location: { index: 104 } } },
      { insertTableRow: { tableCellLocation: { tableStartLocation: { index: 101 }, rowIndex: 0 }, insertBelow: true } },
      { insertText: { text: 'after the table\n', location: { index: 300 } } },
      { insertSectionBreak: { sectionType: 'NEXT_PAGE', location: { index: 250 } } },
      { insertPageBreak: { location: { index: 20 } } },
      { createParagraphBullets: { range: { startIndex: 30, endIndex: 200 }, bulletPreset: 'NUMBERED_DECIMAL_NESTED' } },
      { createNamedRange: { name: 'n', range: { startIndex: 400, endIndex: 420 } } },
      { replaceAllText: { containsText: { text: 'words' }, replaceText: 'many\nlines' } },
      { deleteContentRange: { range: { startIndex: 350, endIndex: 500 } } },
      { updateTextStyle: { range: { startIndex: 10, endIndex: 600 }, textStyle: { italic: true }, fields: 'italic' } },
      { insertText: { text: 'last', endOfSegmentLocation: {} } },
    ]
    const batched = engine(seed)
    batched.apply(...requests)
    const single = engine(seed)
    for (const r of requests) single.apply(r)
    expect(batched.wire()).toEqual(single.wire())
    expect(JSON.stringify(batched.ctx.doc)).toBe(JSON.stringify(single.ctx.doc))
  })
})

describe('docs.documents.batchUpdate bounds', () => {
  it('refuses a batch past its work budget whole, with a 400 that says to split it', async () => {
    const h = harness('demo')
    const grow = await h.call('POST', `/v1/documents/${DOC}:batchUpdate`, {
      json: { requests: [{ insertText: { text: 'para\n'.repeat(20_000), location: { index: 1 } } }] },
    })
    expect(grow.status).toBe(200)
    const before = await h.call('GET', `/v1/documents/${DOC}`)
    // Each replaceAllText reads the whole body: 200 of them need far more than MAX_BATCH_WORK.
    const requests = Array.from({ length: 200 }, (_, i) => ({
      replaceAllText: { containsText: { text: i % 2 ? 'arap' : 'para' }, replaceText: i % 2 ? 'para' : 'arap' },
    }))
    const res = await h.call('POST', `/v1/documents/${DOC}:batchUpdate`, { json: { requests } })
    expect(res.status).toBe(400)
    expect(res.body.error.status).toBe('INVALID_ARGUMENT')
    expect(res.body.error.message).toMatch(
      /^Invalid requests\[\d+\]\.replaceAllText: The batch needs more work than one batchUpdate may do/,
    )
    const after = await h.call('GET', `/v1/documents/${DOC}`)
    expect(after.body.revisionId).toBe(before.body.revisionId)
    // The same requests in small batches are fine.
    const few = await h.call('POST', `/v1/documents/${DOC}:batchUpdate`, { json: { requests: requests.slice(0, 4) } })
    expect(few.status).toBe(200)
    expect(MAX_BATCH_WORK).toBeGreaterThan(1_000_000)
  }, 60_000)

  it('refuses a batch that grows the stored document past its maximum, and accepts one that shrinks it', async () => {
    const h = harness('demo')
    // A 1,000 × 20 table takes about 3 M characters stored.
    const tables = Array(3).fill({ insertTable: { rows: 1_000, columns: 20, location: { index: 1 } } })
    let refused: Awaited<ReturnType<typeof h.call>> | undefined
    for (let i = 0; i < 4 && !refused; i++) {
      const res = await h.call('POST', `/v1/documents/${DOC}:batchUpdate`, { json: { requests: tables } })
      if (res.status !== 200) refused = res
    }
    expect(refused?.status).toBe(400)
    expect(refused?.body.error.message).toContain(`past the maximum of ${MAX_STORED_DOCUMENT}`)
    // Deleting the first table (a newline and the table after it) makes the document smaller: accepted.
    const doc = (await h.call('GET', `/v1/documents/${DOC}`)).body
    const first = doc.body.content.findIndex((c: any) => c.table)
    const end = doc.body.content[first].endIndex
    const cut = await h.call('POST', `/v1/documents/${DOC}:batchUpdate`, {
      json: { requests: [{ deleteContentRange: { range: { startIndex: 1, endIndex: end } } }] },
    })
    expect(cut.status, cut.text.slice(0, 200)).toBe(200)
  }, 60_000)
})
