import { describe, expect, it } from 'vitest'
import { Rng } from '../../envs/core/rng.ts'
import { World } from '../../envs/core/world.ts'
import { buildDocument, docsSeedSchema } from '../../envs/docs/build.ts'
import { docsTables } from '../../envs/docs/schema.ts'
import { plainText } from '../../envs/docs/render/text.ts'
import { documentTabToWire } from '../../envs/docs/model/wire.ts'
import { demoDocs, largeDocs } from '../../seeds/demo/docs.ts'
import { DEMO_DOMAIN, DEMO_NOW, demoUsers } from '../../seeds/demo/people.ts'

const ctx = () => ({ rng: new Rng(1), users: demoUsers, now: DEMO_NOW, domain: DEMO_DOMAIN })

describe('docs seed', () => {
  it('demo documents validate and build into consistent documents', () => {
    const seed = docsSeedSchema.parse(demoDocs(ctx()))
    expect(seed.documents.length).toBeGreaterThanOrEqual(6)
    const world = World.create([...docsTables])
    for (const d of seed.documents) {
      const doc = buildDocument(world.db, 'x', d.content, { namedRanges: d.namedRanges })
      const body = (documentTabToWire(doc.tabs[0]!) as any).body.content
      // Indices are contiguous from 0 to the end of the body.
      for (let k = 1; k < body.length; k++) expect(body[k].startIndex).toBe(body[k - 1].endIndex)
      expect(plainText(doc)).toContain(
        typeof d.content[0] === 'string' ? d.content[0] : (d.content[0] as { text: string }).text,
      )
    }
  })

  it('the contract summary has a named range over the renewal placeholder', () => {
    const seed = docsSeedSchema.parse(demoDocs(ctx()))
    const d = seed.documents.find((x) => x.title?.startsWith('Contract Summary'))!
    const doc = buildDocument(World.create([...docsTables]).db, 'x', d.content, { namedRanges: d.namedRanges })
    const nr = doc.tabs[0]!.namedRanges[0]!
    const text = plainText(doc)
    expect(nr.name).toBe('renewal_date')
    expect(text.slice(nr.ranges[0]!.start - 1, nr.ranges[0]!.end - 1)).toBe('TBD')
  })

  it('the demo slice varies with the seed value and the large slice validates', () => {
    const a = JSON.stringify(demoDocs({ ...ctx(), rng: new Rng(1) }))
    const b = JSON.stringify(demoDocs({ ...ctx(), rng: new Rng(2) }))
    expect(a).not.toBe(b)
    expect(docsSeedSchema.parse(largeDocs(ctx())).documents).toHaveLength(300)
  })

  it("checks a seed's raw requests as batchUpdate does, and applies them after the blocks", () => {
    const db = () => World.create([...docsTables]).db
    const bad = [{ insertText: { location: { index: 'one' }, text: 'x' } }]
    expect(() => buildDocument(db(), 'x', ['Hello'], { requests: bad })).toThrow(
      'Invalid value at \'requests[0].insertText.location.index\', "one"',
    )
    expect(() => buildDocument(db(), 'x', ['Hello'], { requests: [{ insertTexts: {} }] })).toThrow(
      /Unknown name "insertTexts"/,
    )
    const doc = buildDocument(db(), 'x', ['Hello', { bullets: ['a', 'b'] }, { table: [['c']] }], {
      requests: [{ insertText: { location: { index: 1 }, text: 'Oh. ' } }],
    })
    expect(plainText(doc)).toBe('Oh. Hello\na\nb\nc\n\n')
  })

  it('unknown block shapes are refused', () => {
    expect(docsSeedSchema.safeParse({ documents: [{ owner: 'alice', content: [{ heading: 'x' }] }] }).success).toBe(
      false,
    )
  })
})

describe('docs seed in a world', () => {
  it('seeds the demo documents as Drive files their owners can read through docs.documents.get', async () => {
    const { harness } = await import('../../envs/core/testing/harness.ts')
    const { demoSeed } = await import('../../seeds/demo/index.ts')
    const h = harness({ ...demoSeed(1), docs: demoDocs(ctx()) })
    const { docs } = await import('../../envs/docs/index.ts')
    const all = docs.dump(h.entry.world).entities.documents as Record<string, any>
    const roadmap = Object.values(all).find((d) => d.text.includes('Product Roadmap'))
    expect(roadmap).toBeDefined()
    expect(Object.keys(all).length).toBeGreaterThanOrEqual(6)
    const res = await h.call('GET', `/v1/documents/${roadmap.documentId}`, { token: h.google('alice') })
    expect(res.status).toBe(200)
    expect(res.body.title).toMatch(/Product Roadmap$/)
    expect(res.body.body.content.some((e: any) => e.table)).toBe(true)
    expect((await h.call('GET', `/v1/documents/${roadmap.documentId}`, { token: h.google('erin') })).status).toBe(403)
  })

  it('keeps an explicit id only when Drive seeded that Google Doc', async () => {
    const { harness } = await import('../../envs/core/testing/harness.ts')
    expect(() =>
      harness({
        name: 'x',
        users: [{ id: 'a', email: 'a@x.test', name: 'A' }],
        docs: { documents: [{ id: '1missing', content: ['x'] }] },
      }),
    ).toThrow(/not a Google Doc/)
  })
})
