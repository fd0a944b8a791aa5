import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackJson, slackMethod } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { isMember, me, missingField, nowSec, userById, visibleChannel } from '../store/core.ts'
import { idList } from '../store/admin.ts'
import {
  accessLevel,
  canvasById,
  markdownOf,
  sectionsOf,
  splitSections,
  writeSections,
  type CanvasRow,
} from '../store/canvas.ts'
import { spliceAll } from '../../core/arrays.ts'

// Canvases: documents of markdown sections owned by a member, shared with users or channels.
// Deviation: canvases are not listed by files.list/files.info; their content is in the state dump.

export const canvasesRouter = createSlackRouter()
const opt = () => z.string().optional()
const WRITE = { user: ['canvases:write'], bot: ['canvases:write'] }
const READ = { user: ['canvases:read'], bot: ['canvases:read'] }

function create(db: Db, owner: string, title: string, markdown: string | undefined, channelId: string | null) {
  const id = slackId(db, 'F')
  stmt(db, 'INSERT INTO slack_canvases (id, title, owner, channel_id, created, updated) VALUES (?,?,?,?,?,?)').run(
    id,
    title,
    owner,
    channelId,
    nowSec(db),
    nowSec(db),
  )
  writeSections(db, id, splitSections(markdown ?? ''))
  if (channelId)
    stmt(db, "INSERT INTO slack_access (object_id, entity_id, level) VALUES (?, ?, 'write')").run(id, channelId)
  return id
}

/** A canvas the caller may at least read (else `canvas_not_found`), and their access level. */
function reachable(db: Db, id: string | undefined, userId: string) {
  const cv = canvasById(db, id)
  const level = cv ? accessLevel(db, cv.id, cv.owner, userId) : undefined
  if (!cv || !level) throw new SlackApiError('canvas_not_found')
  return { cv, level }
}

slackMethod(canvasesRouter, {
  name: 'canvases.create',
  args: z.object({ title: opt(), document_content: z.unknown().optional(), channel_id: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const user = me(c)
      const markdown = a.document_content === undefined ? undefined : markdownOf(a.document_content)
      let channel: string | null = null
      if (a.channel_id) {
        const ch = visibleChannel(db, a.channel_id, user.id)
        if (!isMember(db, ch.id, user.id)) throw new SlackApiError('not_in_channel')
        channel = ch.id
      }
      return { canvas_id: create(db, user.id, a.title ?? 'Untitled', markdown, channel) }
    }),
})

slackMethod(canvasesRouter, {
  name: 'conversations.canvases.create',
  args: z.object({ channel_id: opt(), document_content: z.unknown().optional(), title: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const user = me(c)
      const ch = visibleChannel(db, a.channel_id, user.id)
      if (ch.kind === 'im' || ch.kind === 'mpim') throw new SlackApiError('channel_type_not_supported')
      if (ch.is_archived) throw new SlackApiError('is_archived')
      if (!isMember(db, ch.id, user.id)) throw new SlackApiError('not_in_channel')
      if (stmt(db, "SELECT 1 FROM slack_access WHERE entity_id = ? AND level = 'channel_canvas'").get(ch.id))
        throw new SlackApiError('channel_canvas_already_exists')
      const markdown = a.document_content === undefined ? undefined : markdownOf(a.document_content)
      const id = create(db, user.id, a.title ?? ch.name, markdown, ch.id)
      // The channel canvas is marked so a second one is refused.
      stmt(db, "UPDATE slack_access SET level = 'channel_canvas' WHERE object_id = ? AND entity_id = ?").run(id, ch.id)
      return { canvas_id: id }
    }),
})

const Change = z.object({
  operation: z.enum([
    'insert_after',
    'insert_before',
    'insert_at_start',
    'insert_at_end',
    'replace',
    'delete',
    'rename',
  ]),
  section_id: z.string().optional(),
  document_content: z.unknown().optional(),
  title_content: z.unknown().optional(),
})

slackMethod(canvasesRouter, {
  name: 'canvases.edit',
  args: z.object({ canvas_id: opt(), changes: slackJson(z.array(Change).min(1).max(100)).optional() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const { cv, level } = reachable(db, a.canvas_id, me(c).id)
      if (level === 'read') throw new SlackApiError('access_denied')
      if (!a.changes) throw missingField('changes')
      let list: { id?: string; kind: string; markdown: string }[] = sectionsOf(db, cv.id)
      let title = cv.title
      for (const ch of a.changes) {
        const at = ch.section_id === undefined ? -1 : list.findIndex((s) => s.id === ch.section_id)
        const needsSection = ['insert_after', 'insert_before', 'delete'].includes(ch.operation)
        if ((needsSection && ch.section_id === undefined) || (ch.section_id !== undefined && at < 0))
          throw new SlackApiError('canvas_editing_failed', { detail: 'section_not_found' })
        const content = () => splitSections(markdownOf(ch.document_content))
        switch (ch.operation) {
          case 'insert_after':
            spliceAll(list, at + 1, 0, content())
            break
          case 'insert_before':
            spliceAll(list, at, 0, content())
            break
          case 'insert_at_start':
            list = [...content(), ...list]
            break
          case 'insert_at_end':
            list = [...list, ...content()]
            break
          case 'replace':
            if (at >= 0) spliceAll(list, at, 1, content())
            else list = content()
            break
          case 'delete':
            list.splice(at, 1)
            break
          case 'rename':
            title = markdownOf(ch.title_content)
              .replace(/^#+\s*/, '')
              .trim()
            break
        }
      }
      writeSections(db, cv.id, list)
      stmt(db, 'UPDATE slack_canvases SET title = ?, updated = ? WHERE id = ?').run(title, nowSec(db), cv.id)
      return {}
    }),
})

slackMethod(canvasesRouter, {
  name: 'canvases.delete',
  args: z.object({ canvas_id: opt() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const { cv, level } = reachable(db, a.canvas_id, me(c).id)
      if (level !== 'owner') throw new SlackApiError('access_denied')
      for (const sql of [
        'DELETE FROM slack_canvas_sections WHERE canvas_id = ?',
        'DELETE FROM slack_access WHERE object_id = ?',
        'DELETE FROM slack_canvases WHERE id = ?',
      ])
        stmt(db, sql).run(cv.id)
      return {}
    }),
})

/** Grants or revokes for users or channels (one kind per call, as Slack requires). */
function accessTargets(db: Db, cv: CanvasRow, a: { channel_ids?: unknown; user_ids?: unknown }, userId: string) {
  const channels = idList(a.channel_ids)
  const users = idList(a.user_ids)
  if ((channels.length === 0) === (users.length === 0)) throw new SlackApiError('invalid_arguments')
  for (const id of channels) visibleChannel(db, id, userId)
  for (const id of users) if (!userById(db, id)) throw new SlackApiError('user_not_found')
  if (users.includes(cv.owner)) throw new SlackApiError('invalid_arguments')
  return [...channels, ...users]
}

slackMethod(canvasesRouter, {
  name: 'canvases.access.set',
  args: z.object({
    canvas_id: opt(),
    access_level: opt(),
    channel_ids: z.unknown().optional(),
    user_ids: z.unknown().optional(),
  }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const self = me(c).id
      const { cv, level } = reachable(db, a.canvas_id, self)
      if (level !== 'owner') throw new SlackApiError('access_denied')
      if (!a.access_level || !['read', 'write', 'owner'].includes(a.access_level))
        throw new SlackApiError('invalid_arguments')
      const targets = accessTargets(db, cv, a, self)
      if (a.access_level === 'owner' && targets.some((t) => !t.startsWith('U')))
        throw new SlackApiError('invalid_arguments')
      for (const t of targets)
        stmt(
          db,
          "INSERT INTO slack_access (object_id, entity_id, level) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET level = CASE WHEN level = 'channel_canvas' THEN level ELSE excluded.level END",
        ).run(cv.id, t, a.access_level)
      return {}
    }),
})

slackMethod(canvasesRouter, {
  name: 'canvases.access.delete',
  args: z.object({ canvas_id: opt(), channel_ids: z.unknown().optional(), user_ids: z.unknown().optional() }),
  scopes: WRITE,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const self = me(c).id
      const { cv, level } = reachable(db, a.canvas_id, self)
      if (level !== 'owner') throw new SlackApiError('access_denied')
      for (const t of accessTargets(db, cv, a, self))
        stmt(db, 'DELETE FROM slack_access WHERE object_id = ? AND entity_id = ?').run(cv.id, t)
      return {}
    }),
})

const Criteria = z.object({
  section_types: z.array(z.enum(['h1', 'h2', 'h3', 'any_header'])).optional(),
  contains_text: z.string().optional(),
})
slackMethod(canvasesRouter, {
  name: 'canvases.sections.lookup',
  args: z.object({ canvas_id: opt(), criteria: slackJson(Criteria).optional() }),
  scopes: READ,
  handler: (c, a) => {
    const db = c.var.world.db
    const { cv } = reachable(db, a.canvas_id, me(c).id)
    const cr = a.criteria
    if (!cr || (!cr.section_types?.length && cr.contains_text === undefined))
      throw new SlackApiError('invalid_arguments')
    const types = cr.section_types ?? []
    const text = cr.contains_text?.toLowerCase()
    const hits = sectionsOf(db, cv.id).filter(
      (s) =>
        (types.length === 0 || types.includes(s.kind as 'h1') || (types.includes('any_header') && s.kind !== 'any')) &&
        (text === undefined ||
          s.markdown
            .replace(/^#+\s*/, '')
            .toLowerCase()
            .includes(text)),
    )
    return { sections: hits.map((s) => ({ id: s.id })) }
  },
})
