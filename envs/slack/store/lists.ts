import { stmt, type Db } from '../../core/db.ts'
import { nextCounter } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { channelById, parseJson, userById } from './core.ts'

export type ListRow = {
  id: string
  name: string
  description: string
  columns: string
  todo_mode: number
  owner: string
  created: number
  updated: number
}
export type ItemRow = {
  list_id: string
  id: string
  parent_id: string | null
  fields: string
  created_by: string
  created: number
  updated_by: string
  updated: number
}
export type Column = {
  id: string
  key: string
  name: string
  type: string
  is_primary_column: boolean
  options?: Record<string, unknown>
}
export type Cell = Record<string, unknown>

/** Column types and the cell key each one's value travels in. */
export const COLUMN_TYPES: Record<string, string> = {
  text: 'rich_text',
  rich_text: 'rich_text',
  number: 'number',
  select: 'select',
  date: 'date',
  user: 'user',
  checkbox: 'checkbox',
  email: 'email',
  phone: 'phone',
  channel: 'channel',
  link: 'link',
  rating: 'rating',
  timestamp: 'timestamp',
  todo_completed: 'checkbox',
  todo_assignee: 'user',
  todo_due_date: 'date',
}

export const listById = (db: Db, id: string | undefined) =>
  (id ? stmt(db, 'SELECT * FROM slack_lists WHERE id = ?').get(id) : undefined) as ListRow | undefined
export const itemById = (db: Db, listId: string, id: string | undefined) =>
  (id ? stmt(db, 'SELECT * FROM slack_list_items WHERE list_id = ? AND id = ?').get(listId, id) : undefined) as
    ItemRow | undefined
export const columnsOf = (l: ListRow) => parseJson<Column[]>(l.columns, [])

export const columnId = (db: Db) =>
  `Col${nextCounter(db, 'slack.list_column').toString(36).toUpperCase().padStart(8, '0')}`
export const itemId = (db: Db) => `Rec${nextCounter(db, 'slack.list_item').toString(36).toUpperCase().padStart(8, '0')}`

const TODO_COLUMNS = [
  { key: 'todo_completed', name: 'Completed', type: 'todo_completed' },
  { key: 'todo_assignee', name: 'Assignee', type: 'todo_assignee' },
  { key: 'todo_due_date', name: 'Due date', type: 'todo_due_date' },
]
/** Adds the three to-do columns when a list turns into a to-do list. */
export function withTodo(db: Db, cols: Column[]): Column[] {
  const extra = TODO_COLUMNS.filter((t) => !cols.some((c) => c.type === t.type)).map((t) => ({
    id: columnId(db),
    ...t,
    is_primary_column: false,
  }))
  return [...cols, ...extra]
}

const arr = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? undefined : [v])
const bad = (): never => {
  throw new SlackApiError('invalid_cell_value')
}

/** A cell given as `{column_id, <type key>: value}` checked against its column; returns the stored value. */
export function cellValue(db: Db, col: Column, cell: Cell): unknown {
  const key = COLUMN_TYPES[col.type]!
  const raw = col.type === 'text' && typeof cell.text === 'string' ? cell.text : cell[key]
  if (raw === undefined) bad()
  switch (key) {
    case 'rich_text': {
      if (typeof raw === 'string') return raw
      if (Array.isArray(raw)) return raw
      return bad()
    }
    case 'checkbox':
      return typeof raw === 'boolean' ? raw : bad()
    case 'number':
    case 'rating':
    case 'timestamp': {
      const v = arr(raw)!
      return v.every((x) => typeof x === 'number' && Number.isFinite(x)) && v.length > 0 ? v : bad()
    }
    case 'date': {
      const v = arr(raw)!
      return v.every((x) => typeof x === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(x)) ? v : bad()
    }
    case 'user': {
      const v = arr(raw)!
      if (!v.every((x) => typeof x === 'string' && userById(db, x))) bad()
      return v
    }
    case 'channel': {
      const v = arr(raw)!
      if (!v.every((x) => typeof x === 'string' && channelById(db, x))) bad()
      return v
    }
    case 'select': {
      const v = arr(raw)!
      const choices = ((col.options?.choices as { value: string }[] | undefined) ?? []).map((c) => c.value)
      if (!v.every((x) => typeof x === 'string' && (choices.length === 0 || choices.includes(x)))) bad()
      return v
    }
    default: {
      const v = arr(raw)!
      return v.every((x) => typeof x === 'string' || (x && typeof x === 'object')) ? v : bad()
    }
  }
}

/** Plain-text rendering of a stored value (the `value` of an item field). */
const display = (v: unknown): string => {
  if (typeof v === 'string') return v
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'object' && x ? JSON.stringify(x) : String(x))).join(',')
  return String(v)
}

export function itemWire(l: ListRow, r: ItemRow) {
  const cols = columnsOf(l)
  const values = parseJson<Record<string, unknown>>(r.fields, {})
  const fields = cols
    .filter((c) => values[c.id] !== undefined)
    .map((c) => {
      const v = values[c.id]
      const key = COLUMN_TYPES[c.type]!
      const out: Record<string, unknown> = { key: c.key, column_id: c.id, value: display(v) }
      if (key === 'rich_text') {
        out.text = typeof v === 'string' ? v : display(v)
        out.rich_text =
          typeof v === 'string'
            ? [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: v }] }] }]
            : v
      } else out[key] = v
      return out
    })
  return {
    id: r.id,
    list_id: l.id,
    date_created: r.created,
    created_by: r.created_by,
    updated_by: r.updated_by,
    updated_timestamp: String(r.updated),
    ...(r.parent_id ? { parent_record_id: r.parent_id } : {}),
    fields,
  }
}

export function listWire(l: ListRow) {
  return {
    id: l.id,
    created: l.created,
    timestamp: l.created,
    name: l.name,
    title: l.name,
    mimetype: 'application/vnd.slack-list',
    filetype: 'list',
    pretty_type: 'List',
    user: l.owner,
    editable: true,
    mode: 'list',
    is_external: false,
    updated: l.updated,
    list_metadata: {
      schema: columnsOf(l),
      subtask_schema: columnsOf(l),
      description: l.description,
      is_todo_mode: l.todo_mode === 1,
    },
  }
}
