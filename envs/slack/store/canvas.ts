import { stmt, type Db } from '../../core/db.ts'
import { nextCounter } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { isMember } from './core.ts'
import { parseJsonWithin } from '../../core/json-width.ts'

export type CanvasRow = {
  id: string
  title: string
  owner: string
  channel_id: string | null
  created: number
  updated: number
}
export type SectionRow = { canvas_id: string; id: string; pos: number; kind: string; markdown: string }

/** `{type:'markdown', markdown}` → its markdown, or `invalid_arguments`. */
export function markdownOf(content: unknown): string {
  let v = content
  if (typeof v === 'string') {
    try {
      v = parseJsonWithin(v)
    } catch {
      throw new SlackApiError('invalid_arguments')
    }
  }
  const o = v as { type?: unknown; markdown?: unknown } | null
  if (!o || typeof o !== 'object' || o.type !== 'markdown' || typeof o.markdown !== 'string')
    throw new SlackApiError('invalid_arguments')
  if (o.markdown.length > 200_000) throw new SlackApiError('canvas_too_large')
  return o.markdown
}

/**
 * Splits markdown into canvas sections: a heading line is one section (h1–h3), every other block of
 * non-blank lines (a paragraph, a list item, a fenced code block) is one section of kind `any`.
 */
export function splitSections(markdown: string): { kind: string; markdown: string }[] {
  const out: { kind: string; markdown: string }[] = []
  const lines = markdown.replace(/\r\n/g, '\n').split('\n')
  let para: string[] = []
  let fence = false
  const flush = () => {
    if (para.length) out.push({ kind: 'any', markdown: para.join('\n') })
    para = []
  }
  for (const line of lines) {
    if (fence) {
      para.push(line)
      if (/^```/.test(line)) {
        fence = false
        flush()
      }
      continue
    }
    if (/^```/.test(line)) {
      flush()
      fence = true
      para.push(line)
      continue
    }
    const h = /^(#{1,3})\s+\S/.exec(line)
    if (h) {
      flush()
      out.push({ kind: `h${h[1]!.length}`, markdown: line })
      continue
    }
    if (line.trim() === '') {
      flush()
      continue
    }
    if (/^\s*([-*+]|\d+\.|- \[[ x]\])\s+/.test(line)) {
      flush()
      out.push({ kind: 'any', markdown: line })
      continue
    }
    para.push(line)
  }
  flush()
  return out
}

const sectionId = (db: Db) =>
  `temp:C:VXX${nextCounter(db, 'slack.canvas_section').toString(36).toUpperCase().padStart(8, '0')}`

export const sectionsOf = (db: Db, canvasId: string) =>
  stmt(db, 'SELECT * FROM slack_canvas_sections WHERE canvas_id = ? ORDER BY pos').all(canvasId) as SectionRow[]

/** Rewrites a canvas's sections to `list` (kept ids stay, new ones get fresh ids), renumbering positions. */
export function writeSections(db: Db, canvasId: string, list: { id?: string; kind: string; markdown: string }[]) {
  stmt(db, 'DELETE FROM slack_canvas_sections WHERE canvas_id = ?').run(canvasId)
  list.forEach((s, i) =>
    stmt(db, 'INSERT INTO slack_canvas_sections (canvas_id, id, pos, kind, markdown) VALUES (?,?,?,?,?)').run(
      canvasId,
      s.id ?? sectionId(db),
      i,
      s.kind,
      s.markdown,
    ),
  )
}

export const canvasById = (db: Db, id: string | undefined) =>
  (id ? stmt(db, 'SELECT * FROM slack_canvases WHERE id = ?').get(id) : undefined) as CanvasRow | undefined

/** The caller's access to an object (canvas or list): owner, a direct grant, or a grant to a channel they are in. */
export function accessLevel(
  db: Db,
  objectId: string,
  owner: string,
  userId: string,
): 'owner' | 'write' | 'read' | undefined {
  if (owner === userId) return 'owner'
  const grants = stmt(db, 'SELECT entity_id, level FROM slack_access WHERE object_id = ?').all(objectId) as {
    entity_id: string
    level: string
  }[]
  const rank = { read: 1, write: 2, owner: 3 } as const
  let best: 'owner' | 'write' | 'read' | undefined
  for (const g of grants) {
    const applies = g.entity_id === userId || (!g.entity_id.startsWith('U') && isMember(db, g.entity_id, userId))
    const level = (g.level === 'channel_canvas' ? 'write' : g.level) as keyof typeof rank
    if (applies && rank[level] && (!best || rank[level] > rank[best])) best = level
  }
  return best
}
