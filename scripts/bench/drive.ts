import { Rng } from '../../envs/core/rng.ts'
import { benchWorld, timeIt, type BenchFigure } from './types.ts'

const WORDS = ['budget', 'roadmap', 'invoice', 'design', 'notes', 'contract', 'report', 'plan', 'review', 'draft']

/** 10,000 files in 100 folders shared among three users: compound-q search latency. */
export async function run(): Promise<BenchFigure[]> {
  const rng = new Rng(7)
  const owners = ['ann', 'ben', 'cy']
  const files: Record<string, unknown>[] = []
  for (let f = 0; f < 100; f++)
    files.push({
      key: `f${f}`,
      name: `Folder ${f}`,
      mimeType: 'application/vnd.google-apps.folder',
      owner: rng.pick(owners),
      permissions: rng.chance(0.5) ? [{ type: 'user', role: 'writer', user: rng.pick(owners) }] : [],
    })
  for (let i = 0; i < 9_900; i++) {
    files.push({
      name: `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${i}.txt`,
      mimeType: rng.chance(0.3) ? 'application/pdf' : 'text/plain',
      owner: rng.pick(owners),
      parent: `f${rng.int(0, 99)}`,
      text: `${rng.pick(WORDS)} ${rng.pick(WORDS)}`,
      starred: rng.chance(0.1),
      at: `-${rng.int(0, 300)}d`,
    })
  }
  const seed = {
    name: 'bench-drive',
    users: owners.map((id) => ({ id, email: `${id}@example.com`, name: id.toUpperCase() })),
    drive: { files },
  }
  const { worlds, app, seedMs, headers } = await benchWorld(seed)
  const q = encodeURIComponent(
    "(name contains 'budget' or fullText contains 'roadmap') and mimeType != 'application/pdf' and trashed = false and modifiedTime > '2025-06-01T00:00:00Z'",
  )
  const search = await timeIt(
    async () => (await app.request(`/drive/v3/files?q=${q}&pageSize=100&prettyPrint=false`, { headers })).text(),
    50,
    5,
  )
  worlds.close()
  return [
    { name: 'seed 10,000 files', value: seedMs, unit: 'ms' },
    { name: 'files.list compound q over 10,000 files p50', value: search.p50, unit: 'ms', target: '≤ 20 ms' },
    { name: 'files.list (same) p99', value: search.p99, unit: 'ms' },
  ]
}
