import { BG_FILE_STEMS, BG_FOLDERS, BG_PROJECTS, BG_TOPICS } from './vocab.ts'
import { DAY, ago, type WorldCtx } from './context.ts'

type Permission = {
  type: 'user' | 'domain'
  role: 'writer' | 'commenter' | 'reader'
  user?: string
  emailAddress?: string
  domain?: string
}
type File = {
  key: string
  name: string
  mimeType: string
  owner: string
  parent?: string
  text?: string
  at: string
  starred?: boolean
  permissions: Permission[]
}
type Doc = { title: string; owner: string; content: unknown[]; suggestions?: unknown[] }

const FOLDER = 'application/vnd.google-apps.folder'
const KINDS = [
  { ext: 'txt', mime: 'text/plain' },
  { ext: 'md', mime: 'text/markdown' },
  { ext: 'csv', mime: 'text/csv' },
  { ext: 'pdf', mime: 'application/pdf' },
  { ext: 'png', mime: 'image/png' },
  { ext: 'json', mime: 'application/json' },
] as const

/** A folder tree per the volume (top-level folders, project subfolders), files in it, some shared in the company. */
export function backgroundDrive(ctx: WorldCtx): { files: File[]; docs: Doc[] } {
  const { r } = ctx
  const owners = [ctx.actor.id, ...ctx.users.filter((u) => u.id !== ctx.actor.id).map((u) => u.id)]
  const others = owners.slice(1)
  const folders: File[] = []
  const tops = r.sample(
    BG_FOLDERS.filter((n) => !ctx.collides(n)),
    Math.min(BG_FOLDERS.length, Math.max(2, Math.ceil(ctx.vol.folders / 3))),
  )
  tops.forEach((name, i) =>
    folders.push({
      key: `bg-folder-${i}`,
      name,
      mimeType: FOLDER,
      owner: ctx.actor.id,
      at: ago(r.int(100, 200) * DAY),
      permissions: [],
    }),
  )
  for (let i = folders.length; i < ctx.vol.folders; i++) {
    const parent = r.pick(folders)
    const name =
      parent.name === 'Projects' || r.next() < 0.5
        ? r.pick(BG_PROJECTS)
        : r.pick(['Drafts', 'Exports', 'Notes', 'Old', 'Reviews', 'Raw data'])
    if (ctx.collides(name) || folders.some((f) => f.parent === parent.key && f.name === name)) continue
    const owner = others.length && r.next() < 0.2 ? r.pick(others) : ctx.actor.id
    const shared: Permission[] =
      owner !== ctx.actor.id
        ? [{ type: 'user', role: 'writer', user: ctx.actor.id }]
        : r.next() < 0.15
          ? [{ type: 'domain', role: 'reader', domain: ctx.domain }]
          : []
    folders.push({
      key: `bg-folder-${i}`,
      name,
      mimeType: FOLDER,
      owner: parent.owner === owner ? owner : parent.owner,
      parent: parent.key,
      at: ago(r.int(60, 150) * DAY),
      permissions: parent.owner === owner ? shared : [],
    })
  }
  const files: File[] = []
  for (let i = 0; i < ctx.vol.files; i++) {
    const kind = r.pick(KINDS)
    const project = r.pick(BG_PROJECTS)
    const stem = r.pick(BG_FILE_STEMS)
    const name = `${project} ${stem}${r.next() < 0.3 ? ` v${r.int(2, 6)}` : ''}.${kind.ext}`
    const inFolder = r.next() < 0.85
    const parent = inFolder ? r.pick(folders) : undefined
    const owner = parent ? parent.owner : others.length && r.next() < 0.3 ? r.pick(others) : ctx.actor.id
    const permissions: Permission[] = []
    if (owner !== ctx.actor.id && !parent)
      permissions.push({ type: 'user', role: r.pick(['reader', 'commenter', 'writer'] as const), user: ctx.actor.id })
    else if (r.next() < 0.12)
      permissions.push({
        type: 'user',
        role: r.pick(['reader', 'commenter'] as const),
        emailAddress: r.pick(ctx.coworkers).email,
      })
    else if (r.next() < 0.08) permissions.push({ type: 'domain', role: 'reader', domain: ctx.domain })
    const text =
      kind.ext === 'csv'
        ? `metric,week1,week2\nlatency_ms,${r.int(80, 300)},${r.int(80, 300)}\nerrors,${r.int(0, 40)},${r.int(0, 40)}\n`
        : kind.ext === 'json'
          ? JSON.stringify({ project, stem, items: r.int(1, 40) })
          : kind.ext === 'png'
            ? `PNG placeholder: ${project} ${stem}`
            : kind.ext === 'pdf'
              ? `%PDF-1.4\n% ${project} ${stem}\n%%EOF`
              : `${project} — ${stem}\n\n${r.pick(BG_TOPICS)[1]}\n`
    files.push({
      key: `bg-file-${i}`,
      name,
      mimeType: kind.mime,
      owner,
      ...(parent ? { parent: parent.key } : {}),
      text,
      at: ago(r.int(60, 120 * DAY)),
      starred: r.next() < 0.04,
      permissions,
    })
  }
  const docs: Doc[] = Array.from({ length: ctx.vol.docs }, (_, i) => {
    const project = BG_PROJECTS[(i * 3 + r.int(0, 2)) % BG_PROJECTS.length]!
    const [topic, body] = r.pick(BG_TOPICS)
    const owner = others.length && i % 3 === 2 ? r.pick(others) : ctx.actor.id
    // Every fourth doc has a colleague's pending suggestion (no rng draw, so the rest of the world is unchanged).
    const suggester = owners.find((u) => u !== owner)
    const suggestions =
      suggester && i % 4 === 1
        ? [{ author: suggester, insert: { after: 'Which metrics matter?', text: ' Who reports them?' } }]
        : undefined
    return {
      title: `${project} ${topic}`,
      owner,
      ...(suggestions ? { suggestions } : {}),
      content: [
        { text: `${project}: ${topic}`, style: 'TITLE' },
        { text: 'Context', style: 'HEADING_1' },
        body,
        { text: 'Open questions', style: 'HEADING_1' },
        { bullets: ['Who owns the follow-up?', 'What is the deadline?', 'Which metrics matter?'] },
        { text: 'Numbers', style: 'HEADING_2' },
        {
          table: [
            ['Week', 'Value'],
            ['1', String(r.int(10, 99))],
            ['2', String(r.int(10, 99))],
          ],
        },
      ],
    }
  })
  const keep = (s: string) => !ctx.collides(s)
  return {
    files: [...folders, ...files.filter((f) => keep(`${f.name} ${f.text ?? ''}`))],
    docs: docs.filter((d) => keep(d.title)),
  }
}
