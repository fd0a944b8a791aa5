import { parseJsonWithin } from '../../core/json-width.ts'
import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackBool, slackInt, slackJson, slackMethod } from '../../core/http.ts'
import { slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { cursorPage, me, missingField, nowSec, parseJson, userById, visibleChannel } from '../store/core.ts'
import { idList } from '../store/admin.ts'
import { accessLevel } from '../store/canvas.ts'
import {
  cellValue,
  columnId,
  columnsOf,
  COLUMN_TYPES,
  itemById,
  itemId,
  itemWire,
  listById,
  listWire,
  withTodo,
  type Cell,
  type Column,
  type ItemRow,
} from '../store/lists.ts'

// Slack Lists: tables of typed columns whose rows (items) members create and edit; shared like canvases.

export const listsRouter = createSlackRouter()
const opt = () => z.string().optional()
const WRITE = { user: ['lists:write'], bot: ['lists:write'] }
const READ = { user: ['lists:read'], bot: ['lists:read'] }

const ColumnIn = z.object({
  key: z.string().min(1).max(100),
  name: z.string().min(1).max(100),
  type: z.string(),
  is_primary_column: z.boolean().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
})

/** A list the caller may at least read (else `list_not_found`), and their access level. */
function reachable(db: Db, id: string | undefined, userId: string, need: 'read' | 'write' | 'owner' = 'read') {
  const l = listById(db, id)
  const level = l ? accessLevel(db, l.id, l.owner, userId) : undefined
  if (!l || !level) throw new SlackApiError('list_not_found')
  const rank = { read: 1, write: 2, owner: 3 }
  if (rank[level] < rank[need]) throw new SlackApiError('access_denied')
  return l
}

function descriptionOf(v: unknown): string {
  if (v === undefined) return ''
  const blocks =
    typeof v === 'string'
      ? (() => {
          try {
            return parseJsonWithin(v)
          } catch {
            return v
          }
        })()
      : v
  return typeof blocks === 'string' ? blocks : JSON.stringify(blocks)
}

slackMethod(listsRouter, {
  name: 'slackLists.create',
  scopes: WRITE,
  args: z.object({
    name: opt(),
    description_blocks: z.unknown().optional(),
    schema: slackJson(z.array(ColumnIn).max(100)).optional(),
    copy_from_list_id: opt(),
    include_copied_list_records: slackBool().optional(),
    todo_mode: slackBool().optional(),
  }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const owner = me(c)
      if (!a.name) throw missingField('name')
      const source = a.copy_from_list_id ? reachable(db, a.copy_from_list_id, owner.id) : undefined
      let cols: Column[]
      if (source) cols = columnsOf(source)
      else {
        const given = a.schema ?? [{ key: 'name', name: 'Name', type: 'text', is_primary_column: true }]
        if (given.some((col) => !COLUMN_TYPES[col.type])) throw new SlackApiError('invalid_column_type')
        if (given.filter((col) => col.is_primary_column).length !== 1) throw new SlackApiError('invalid_schema')
        if (new Set(given.map((col) => col.key)).size !== given.length) throw new SlackApiError('invalid_schema')
        cols = given.map((col) => ({
          id: columnId(db),
          key: col.key,
          name: col.name,
          type: col.type,
          is_primary_column: col.is_primary_column ?? false,
          ...(col.options ? { options: col.options } : {}),
        }))
      }
      if (a.todo_mode) cols = withTodo(db, cols)
      const id = slackId(db, 'F')
      stmt(
        db,
        'INSERT INTO slack_lists (id, name, description, columns, todo_mode, owner, created, updated) VALUES (?,?,?,?,?,?,?,?)',
      ).run(
        id,
        a.name,
        descriptionOf(a.description_blocks),
        JSON.stringify(cols),
        a.todo_mode ? 1 : 0,
        owner.id,
        nowSec(db),
        nowSec(db),
      )
      if (source && a.include_copied_list_records) {
        for (const r of stmt(db, 'SELECT * FROM slack_list_items WHERE list_id = ? ORDER BY rowid').all(
          source.id,
        ) as ItemRow[]) {
          stmt(
            db,
            'INSERT INTO slack_list_items (list_id, id, parent_id, fields, created_by, created, updated_by, updated) VALUES (?,?,?,?,?,?,?,?)',
          ).run(id, itemId(db), null, r.fields, owner.id, nowSec(db), owner.id, nowSec(db))
        }
      }
      return { list_id: id, list_metadata: { schema: cols, subtask_schema: cols } }
    }),
})

slackMethod(listsRouter, {
  name: 'slackLists.update',
  scopes: WRITE,
  args: z.object({
    id: opt(),
    name: opt(),
    description_blocks: z.unknown().optional(),
    todo_mode: slackBool().optional(),
  }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const l = reachable(db, a.id, me(c).id, 'write')
      if (a.name !== undefined && !a.name) throw new SlackApiError('invalid_arguments')
      const cols = a.todo_mode ? withTodo(db, columnsOf(l)) : columnsOf(l)
      stmt(
        db,
        'UPDATE slack_lists SET name = ?, description = ?, todo_mode = ?, columns = ?, updated = ? WHERE id = ?',
      ).run(
        a.name ?? l.name,
        a.description_blocks !== undefined ? descriptionOf(a.description_blocks) : l.description,
        a.todo_mode === undefined ? l.todo_mode : a.todo_mode ? 1 : 0,
        JSON.stringify(cols),
        nowSec(db),
        l.id,
      )
      return {}
    }),
})

const CellIn = z.object({ column_id: z.string() }).passthrough()
/** Stored values for given cells (`column_id` + typed value), merged into `base`. */
function applyCells(db: Db, cols: Column[], cells: Cell[], base: Record<string, unknown>) {
  const out = { ...base }
  for (const cell of cells) {
    const col = cols.find((x) => x.id === cell.column_id)
    if (!col) throw new SlackApiError('invalid_column_id')
    out[col.id] = cellValue(db, col, cell)
  }
  return out
}

slackMethod(listsRouter, {
  name: 'slackLists.items.create',
  scopes: WRITE,
  args: z.object({
    list_id: opt(),
    initial_fields: slackJson(z.array(CellIn).max(100)).optional(),
    parent_item_id: opt(),
    duplicated_item_id: opt(),
  }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const user = me(c)
      const l = reachable(db, a.list_id, user.id, 'write')
      if (a.parent_item_id && !itemById(db, l.id, a.parent_item_id)) throw new SlackApiError('parent_item_not_found')
      let base: Record<string, unknown> = {}
      if (a.duplicated_item_id) {
        const dup = itemById(db, l.id, a.duplicated_item_id)
        if (!dup) throw new SlackApiError('item_not_found')
        base = parseJson(dup.fields, {})
      }
      const fields = applyCells(db, columnsOf(l), (a.initial_fields ?? []) as Cell[], base)
      const id = itemId(db)
      stmt(
        db,
        'INSERT INTO slack_list_items (list_id, id, parent_id, fields, created_by, created, updated_by, updated) VALUES (?,?,?,?,?,?,?,?)',
      ).run(l.id, id, a.parent_item_id ?? null, JSON.stringify(fields), user.id, nowSec(db), user.id, nowSec(db))
      stmt(db, 'UPDATE slack_lists SET updated = ? WHERE id = ?').run(nowSec(db), l.id)
      return { item: itemWire(l, itemById(db, l.id, id)!) }
    }),
})

slackMethod(listsRouter, {
  name: 'slackLists.items.list',
  scopes: READ,
  args: z.object({ list_id: opt(), limit: slackInt().optional(), cursor: opt(), archived: slackBool().optional() }),
  handler: (c, a) => {
    const db = c.var.world.db
    const l = reachable(db, a.list_id, me(c).id)
    if (a.limit !== undefined && (a.limit < 1 || a.limit > 1000)) throw new SlackApiError('invalid_limit')
    // Deviation: items are never archived, so `archived=true` lists nothing.
    const rows = a.archived
      ? []
      : (stmt(db, 'SELECT * FROM slack_list_items WHERE list_id = ? ORDER BY rowid').all(l.id) as ItemRow[])
    const { page, next } = cursorPage(rows, a.limit ?? 100, a.cursor)
    return { items: page.map((r) => itemWire(l, r)), response_metadata: { next_cursor: next } }
  },
})

slackMethod(listsRouter, {
  name: 'slackLists.items.info',
  scopes: READ,
  args: z.object({ list_id: opt(), id: opt(), include_is_subscribed: slackBool().optional() }),
  handler: (c, a) => {
    const db = c.var.world.db
    const l = reachable(db, a.list_id, me(c).id)
    const r = itemById(db, l.id, a.id)
    if (!r) throw new SlackApiError('item_not_found')
    const subtasks = stmt(db, 'SELECT * FROM slack_list_items WHERE list_id = ? AND parent_id = ? ORDER BY rowid').all(
      l.id,
      r.id,
    ) as ItemRow[]
    return {
      list: listWire(l),
      record: { ...itemWire(l, r), ...(a.include_is_subscribed ? { is_subscribed: r.created_by === me(c).id } : {}) },
      subtasks: subtasks.map((s) => itemWire(l, s)),
    }
  },
})

slackMethod(listsRouter, {
  name: 'slackLists.items.update',
  scopes: WRITE,
  args: z.object({
    list_id: opt(),
    cells: slackJson(
      z
        .array(CellIn.extend({ row_id: z.string() }))
        .min(1)
        .max(100),
    ).optional(),
  }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const user = me(c)
      const l = reachable(db, a.list_id, user.id, 'write')
      if (!a.cells) throw missingField('cells')
      const cols = columnsOf(l)
      const byRow = new Map<string, Cell[]>()
      for (const cell of a.cells) byRow.set(cell.row_id, [...(byRow.get(cell.row_id) ?? []), cell])
      for (const [rowId, cells] of byRow) {
        const r = itemById(db, l.id, rowId)
        if (!r) throw new SlackApiError('item_not_found')
        const fields = applyCells(db, cols, cells, parseJson(r.fields, {}))
        stmt(
          db,
          'UPDATE slack_list_items SET fields = ?, updated_by = ?, updated = ? WHERE list_id = ? AND id = ?',
        ).run(JSON.stringify(fields), user.id, nowSec(db), l.id, r.id)
      }
      return {}
    }),
})

function deleteItems(db: Db, listId: string, ids: string[]) {
  if (ids.length === 0) throw new SlackApiError('invalid_arguments')
  for (const id of ids) if (!itemById(db, listId, id)) throw new SlackApiError('item_not_found')
  for (const id of ids)
    stmt(db, 'DELETE FROM slack_list_items WHERE list_id = ? AND (id = ? OR parent_id = ?)').run(listId, id, id)
}
slackMethod(listsRouter, {
  name: 'slackLists.items.delete',
  scopes: WRITE,
  args: z.object({ list_id: opt(), id: opt() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const l = reachable(db, a.list_id, me(c).id, 'write')
      deleteItems(db, l.id, a.id ? [a.id] : [])
      return {}
    }),
})
slackMethod(listsRouter, {
  name: 'slackLists.items.deleteMultiple',
  scopes: WRITE,
  args: z.object({ list_id: opt(), ids: z.unknown().optional() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const l = reachable(db, a.list_id, me(c).id, 'write')
      deleteItems(db, l.id, idList(a.ids))
      return {}
    }),
})

const accessArgs = z.object({
  list_id: opt(),
  access_level: opt(),
  channel_ids: z.unknown().optional(),
  user_ids: z.unknown().optional(),
})
function accessTargets(db: Db, a: { channel_ids?: unknown; user_ids?: unknown }, owner: string, self: string) {
  const channels = idList(a.channel_ids)
  const users = idList(a.user_ids)
  if ((channels.length === 0) === (users.length === 0)) throw new SlackApiError('invalid_arguments')
  for (const id of channels) visibleChannel(db, id, self)
  for (const id of users) if (!userById(db, id)) throw new SlackApiError('user_not_found')
  if (users.includes(owner)) throw new SlackApiError('invalid_arguments')
  return [...channels, ...users]
}
slackMethod(listsRouter, {
  name: 'slackLists.access.set',
  scopes: WRITE,
  args: accessArgs,
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const self = me(c).id
      const l = reachable(db, a.list_id, self, 'owner')
      if (!a.access_level || !['read', 'write', 'owner'].includes(a.access_level))
        throw new SlackApiError('invalid_arguments')
      const targets = accessTargets(db, a, l.owner, self)
      if (a.access_level === 'owner' && targets.some((t) => !t.startsWith('U')))
        throw new SlackApiError('invalid_arguments')
      for (const t of targets)
        stmt(
          db,
          'INSERT INTO slack_access (object_id, entity_id, level) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET level = excluded.level',
        ).run(l.id, t, a.access_level)
      return {}
    }),
})
slackMethod(listsRouter, {
  name: 'slackLists.access.delete',
  scopes: WRITE,
  args: accessArgs.omit({ access_level: true }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const self = me(c).id
      const l = reachable(db, a.list_id, self, 'owner')
      for (const t of accessTargets(db, a, l.owner, self))
        stmt(db, 'DELETE FROM slack_access WHERE object_id = ? AND entity_id = ?').run(l.id, t)
      return {}
    }),
})
