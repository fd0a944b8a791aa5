import { Rng } from '../../envs/core/rng.ts'
import { refreshNameColumns } from '../../envs/drive/store/name-search.ts'
import { benchWorld, timeIt, type BenchFigure } from './types.ts'

const WORDS = ['budget', 'roadmap', 'invoice', 'design', 'notes', 'contract', 'report', 'plan', 'review', 'draft']

/** 50,000 files (10,000 seeded in 100 folders, their rows copied four times with new ids): name search cost. */
export async function run(): Promise<BenchFigure[]> {
  const rng = new Rng(9)
  const files: Record<string, unknown>[] = []
  const folder = 'application/vnd.google-apps.folder'
  for (let f = 0; f < 100; f++) files.push({ key: `f${f}`, name: `Folder ${f}`, mimeType: folder, owner: 'ann' })
  for (let i = 0; i < 9_900; i++) {
    const name = `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${i}.txt`
    files.push({
      name,
      mimeType: 'text/plain',
      owner: rng.pick(['ann', 'ben']),
      parent: `f${rng.int(0, 99)}`,
      text: 'x',
    })
  }
  const users = ['ann', 'ben'].map((id) => ({ id, email: `${id}@example.com`, name: id.toUpperCase() }))
  const { worlds, app, headers } = await benchWorld({ name: 'bench-drive-scale', users, drive: { files } })
  const sqlite = worlds.list()[0]!.world.sqlite
  const cols = (sqlite.prepare('SELECT name FROM pragma_table_info(?)').all('drive_files') as { name: string }[]).map(
    (c) => c.name,
  )
  const base = (
    sqlite.prepare('SELECT count(*) AS n FROM drive_files WHERE mime_type != ?').get(folder) as { n: number }
  ).n
  for (let copy = 1; copy <= 4; copy++) {
    const pick = cols.map((c) => (c === 'id' ? `id || 'c${copy}'` : c === 'name' ? `'copy${copy} ' || name` : c))
    sqlite.exec(`INSERT INTO drive_files (${cols.join(', ')}) SELECT ${pick.join(', ')} FROM drive_files
      WHERE mime_type != '${folder}' AND id NOT LIKE '%c_'`)
  }
  // The copies were written by SQL: their names' derived columns (for search and order) are recomputed.
  const copies = sqlite.prepare("SELECT id FROM drive_files WHERE id GLOB '*c[1-4]'").pluck().all() as string[]
  refreshNameColumns(worlds.list()[0]!.world.db, copies)
  const total = (sqlite.prepare('SELECT count(*) AS n FROM drive_files').get() as { n: number }).n
  const folderId = (sqlite.prepare("SELECT id FROM drive_files WHERE name = 'Folder 7'").get() as { id: string }).id
  const list = (q: string) => async () => {
    const res = await app.request(`/drive/v3/files?q=${encodeURIComponent(q)}&pageSize=100&prettyPrint=false`, {
      headers,
    })
    if (res.status !== 200) throw new Error(await res.text())
    return res.text()
  }
  const name = await timeIt(list("name contains 'budget'"), 50, 5)
  const inFolder = await timeIt(list(`name contains 'budget' and '${folderId}' in parents and trashed = false`), 50, 5)
  worlds.close()
  return [
    {
      name: `files.list name contains, ${total} files (${base} seeded) p50`,
      value: name.p50,
      unit: 'ms',
      target: '≤ 10 ms',
    },
    { name: 'files.list name contains + parent folder p50', value: inFolder.p50, unit: 'ms', target: '≤ 10 ms' },
  ]
}
