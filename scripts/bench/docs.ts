import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { Rng } from '../../envs/core/rng.ts'
import { timeIt, type BenchFigure } from './types.ts'

const WORDS = [
  'invoice',
  'budget',
  'roadmap',
  'launch',
  'contract',
  'review',
  'meeting',
  'hiring',
  'design',
  'report',
  'travel',
  'offsite',
  'the',
  'and',
  'with',
]

/** A 50-page document (≈1,250 paragraphs, ≈25,000 words, headings, lists, tables): a 100-request batchUpdate. */
export async function run(): Promise<BenchFigure[]> {
  const rng = new Rng(7)
  const sentence = () => Array.from({ length: rng.int(8, 18) }, () => rng.pick(WORDS)).join(' ') + '.'
  const content: unknown[] = []
  for (let page = 0; page < 50; page++) {
    content.push({ text: `Section ${page + 1}`, style: 'HEADING_1' })
    for (let k = 0; k < 22; k++) content.push(`${sentence()} ${sentence()}`)
    if (page % 5 === 0) content.push({ bullets: [sentence(), sentence(), sentence()] })
    if (page % 10 === 0)
      content.push({
        table: [
          ['Item', 'Owner', 'Due'],
          ['a', 'b', 'c'],
          ['d', 'e', 'f'],
        ],
      })
  }
  const seed = {
    name: 'bench-docs',
    users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee' }],
    docs: { documents: [{ title: 'Big document', owner: 'ann', content }] },
  }
  const worlds = new WorldManager()
  const t = performance.now()
  const entry = worlds.create({ seed, seedValue: 1 })
  const seedMs = performance.now() - t
  const app = createAgentApp(worlds)
  const headers = {
    authorization: `Bearer ${worlds.credentials(entry.id)[0]!.googleToken}`,
    'content-type': 'application/json',
  }
  const id = (entry.world.db.$client.prepare('SELECT file_id FROM docs_documents').get() as { file_id: string }).file_id
  const doc = (await (await app.request(`/v1/documents/${id}`, { headers })).json()) as {
    body: { content: { startIndex?: number; endIndex: number; paragraph?: unknown }[] }
  }
  const paras = doc.body.content.filter((e) => e.paragraph && e.endIndex - (e.startIndex ?? 0) > 12)
  // 25 insert+delete pairs (net zero), 25 text styles, 24 paragraph styles, 1 replaceAllText = 100 requests.
  const requests: unknown[] = []
  const picks = Array.from({ length: 25 }, (_, k) => paras[Math.floor(((k + 0.5) * paras.length) / 25)]!).reverse()
  for (const p of picks) {
    const at = (p.startIndex ?? 0) + 3
    requests.push(
      { insertText: { location: { index: at }, text: 'hello ' } },
      { deleteContentRange: { range: { startIndex: at, endIndex: at + 6 } } },
    )
  }
  for (const p of picks)
    requests.push({
      updateTextStyle: {
        range: { startIndex: (p.startIndex ?? 0) + 1, endIndex: (p.startIndex ?? 0) + 8 },
        textStyle: { bold: rng.chance(0.5) },
        fields: 'bold',
      },
    })
  for (const p of picks.slice(1))
    requests.push({
      updateParagraphStyle: {
        range: { startIndex: p.startIndex ?? 0, endIndex: p.endIndex },
        paragraphStyle: { alignment: rng.pick(['START', 'CENTER', 'END']) },
        fields: 'alignment',
      },
    })
  requests.push({ replaceAllText: { containsText: { text: 'zzqx-never' }, replaceText: 'x' } })
  const body = JSON.stringify({ requests })
  let failures = 0
  const batch = await timeIt(
    async () => {
      const res = await app.request(`/v1/documents/${id}:batchUpdate?prettyPrint=false`, {
        method: 'POST',
        headers,
        body,
      })
      if (res.status !== 200) failures++
      await res.arrayBuffer()
    },
    60,
    5,
  )
  const get = await timeIt(
    async () => (await app.request(`/v1/documents/${id}?prettyPrint=false`, { headers })).arrayBuffer(),
    60,
    5,
  )
  worlds.close()
  if (failures > 0) throw new Error(`docs bench: ${failures} batchUpdate calls failed`)
  return [
    { name: 'seed a 50-page document', value: seedMs, unit: 'ms' },
    {
      name: 'documents.batchUpdate 100 requests on a 50-page document p50',
      value: batch.p50,
      unit: 'ms',
      target: '≤ 30 ms',
    },
    { name: 'documents.batchUpdate (same) p99', value: batch.p99, unit: 'ms' },
    { name: 'documents.get 50-page document p50', value: get.p50, unit: 'ms' },
  ]
}
