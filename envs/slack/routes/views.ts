import { createHash } from 'node:crypto'
import { z } from 'zod'
import { stmt, type Db } from '../../core/db.ts'
import { createSlackRouter, slackMethod, type WorldContext } from '../../core/http.ts'
import { nextCounter, slackId } from '../../core/ids.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { me, nowSec, parseJson, teamId, userById, type UserRow } from '../store/core.ts'
import { validateBlocks, type BlockError } from '../store/blockkit.ts'
import { parseJsonWithin } from '../../core/json-width.ts'

// Block Kit surfaces: modals (views.open/push/update), App Home (views.publish) and legacy dialogs
// (dialog.open), recorded as state with Slack's view ids and hashes.
// Deviation: no client shows them and no interaction events arrive. A trigger_id is accepted when it
// has Slack's shape (`<digits>.<digits>.<hex>`); trigger expiry (3 s) is not modelled, and the person a
// modal opens for is unknown unless a user token opens it (`user_id` is then the caller).

export const viewsRouter = createSlackRouter()
const opt = () => z.string().optional()

type ViewRow = {
  id: string
  type: string
  app_user: string
  user_id: string
  external_id: string
  root_view_id: string
  previous_view_id: string | null
  hash: string
  view: string
  trigger_id: string
  created: number
  updated: number
}
const TRIGGER = /^\d+\.\d+\.[0-9a-f]+$/

function checkTrigger(t: string | undefined, error = 'invalid_trigger_id') {
  if (!t || !TRIGGER.test(t)) throw new SlackApiError(error)
  return t
}

const invalid = (msg: string, pointer: string): never => {
  throw new SlackApiError('invalid_arguments', {
    response_metadata: { messages: [`[ERROR] ${msg} [json-pointer:${pointer}]`] },
  })
}
const plain = (v: unknown, max: number, pointer: string, required = true) => {
  if (v === undefined && !required) return
  const t = v as { type?: unknown; text?: unknown } | undefined
  if (!t || t.type !== 'plain_text' || typeof t.text !== 'string') invalid('must provide a plain_text object', pointer)
  if ((t!.text as string).length > max) invalid(`must be less than ${max + 1} characters`, `${pointer}/text`)
}

/** Validates a view payload as Slack does for the fields that matter; returns it parsed. */
function parseView(raw: unknown, kind: 'modal' | 'home'): Record<string, unknown> {
  let v = raw
  if (typeof v === 'string') {
    try {
      v = parseJsonWithin(v)
    } catch {
      invalid('failed to parse view', '/view')
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) invalid('must provide an object', '/view')
  const view = v as Record<string, unknown>
  if (view.type !== kind) invalid(`must be '${kind}'`, '/view/type')
  if (!Array.isArray(view.blocks)) invalid('must provide an array', '/view/blocks')
  const blocks = view.blocks as unknown[]
  if (blocks.length > 100) invalid('must provide no more than 100 items', '/view/blocks')
  blocks.forEach((b, i) => {
    if (!b || typeof (b as { type?: unknown }).type !== 'string')
      invalid('must provide a block type', `/view/blocks/${i}`)
  })
  if (kind === 'modal') {
    plain(view.title, 24, '/view/title')
    plain(view.submit, 24, '/view/submit', false)
    plain(view.close, 24, '/view/close', false)
  }
  for (const k of ['private_metadata', 'callback_id', 'external_id'] as const) {
    if (view[k] !== undefined && typeof view[k] !== 'string') invalid('must be a string', `/view/${k}`)
  }
  if (typeof view.private_metadata === 'string' && view.private_metadata.length > 3000)
    invalid('must be less than 3001 characters', '/view/private_metadata')
  return view
}

const newHash = (db: Db, id: string) =>
  `${nowSec(db)}.${createHash('sha256')
    .update(`${id}:${nextCounter(db, 'slack.view_hash')}`)
    .digest('hex')
    .slice(0, 8)}`

function viewWire(db: Db, r: ViewRow) {
  const v = parseJson<Record<string, unknown>>(r.view, {})
  const app = userById(db, r.app_user)
  return {
    id: r.id,
    team_id: teamId(db),
    type: r.type,
    blocks: v.blocks ?? [],
    private_metadata: v.private_metadata ?? '',
    callback_id: v.callback_id ?? '',
    state: { values: {} },
    hash: r.hash,
    title: v.title ?? { type: 'plain_text', text: 'App', emoji: true },
    clear_on_close: v.clear_on_close ?? false,
    notify_on_close: v.notify_on_close ?? false,
    close: v.close ?? null,
    submit: v.submit ?? null,
    previous_view_id: r.previous_view_id,
    root_view_id: r.root_view_id,
    app_id: app?.bot_id ? `A${app.bot_id.slice(1)}` : 'A00000000',
    external_id: r.external_id,
    app_installed_team_id: teamId(db),
    bot_id: app?.bot_id ?? null,
  }
}

function insertView(
  db: Db,
  app: UserRow,
  type: string,
  userId: string,
  view: Record<string, unknown>,
  root?: string,
  previous?: string,
  trigger = '',
) {
  const external = typeof view.external_id === 'string' ? view.external_id : ''
  if (external && stmt(db, 'SELECT 1 FROM slack_views WHERE app_user = ? AND external_id = ?').get(app.id, external))
    throw new SlackApiError('duplicate_external_id')
  const id = slackId(db, 'V')
  stmt(
    db,
    'INSERT INTO slack_views (id, type, app_user, user_id, external_id, root_view_id, previous_view_id, hash, view, trigger_id, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)',
  ).run(
    id,
    type,
    app.id,
    userId,
    external,
    root ?? id,
    previous ?? null,
    newHash(db, id),
    JSON.stringify(view),
    trigger,
    nowSec(db),
    nowSec(db),
  )
  return stmt(db, 'SELECT * FROM slack_views WHERE id = ?').get(id) as ViewRow
}

const viewer = (c: WorldContext, u: UserRow) => (c.var.principal?.tokenKind === 'slack_user' ? u.id : '')

slackMethod(viewsRouter, {
  name: 'views.open',
  args: z.object({ trigger_id: opt(), interactivity_pointer: opt(), view: z.unknown().optional() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const trigger = checkTrigger(a.trigger_id ?? a.interactivity_pointer)
      const view = parseView(a.view, 'modal')
      const app = me(c)
      return { view: viewWire(db, insertView(db, app, 'modal', viewer(c, app), view, undefined, undefined, trigger)) }
    }),
})

slackMethod(viewsRouter, {
  name: 'views.push',
  args: z.object({ trigger_id: opt(), interactivity_pointer: opt(), view: z.unknown().optional() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const trigger = checkTrigger(a.trigger_id ?? a.interactivity_pointer)
      const view = parseView(a.view, 'modal')
      const app = me(c)
      // The stack the trigger came from: the app's most recent modal stack.
      const top = stmt(
        db,
        "SELECT * FROM slack_views WHERE app_user = ? AND type = 'modal' ORDER BY rowid DESC LIMIT 1",
      ).get(app.id) as ViewRow | undefined
      if (!top) throw new SlackApiError('not_found')
      const depth = (
        stmt(db, 'SELECT COUNT(*) AS n FROM slack_views WHERE root_view_id = ?').get(top.root_view_id) as { n: number }
      ).n
      if (depth >= 3) throw new SlackApiError('push_limit_reached')
      return { view: viewWire(db, insertView(db, app, 'modal', top.user_id, view, top.root_view_id, top.id, trigger)) }
    }),
})

slackMethod(viewsRouter, {
  name: 'views.update',
  args: z.object({ view_id: opt(), external_id: opt(), view: z.unknown().optional(), hash: opt() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const app = me(c)
      if (!a.view_id && !a.external_id) throw new SlackApiError('invalid_arguments')
      const r = (
        a.view_id
          ? stmt(db, 'SELECT * FROM slack_views WHERE id = ? AND app_user = ?').get(a.view_id, app.id)
          : stmt(db, 'SELECT * FROM slack_views WHERE external_id = ? AND app_user = ?').get(a.external_id, app.id)
      ) as ViewRow | undefined
      if (!r || r.type === 'dialog') throw new SlackApiError('not_found')
      const view = parseView(a.view, r.type as 'modal' | 'home')
      if (a.hash !== undefined && a.hash !== r.hash) throw new SlackApiError('hash_conflict')
      const external = typeof view.external_id === 'string' ? view.external_id : r.external_id
      if (
        external !== r.external_id &&
        stmt(db, 'SELECT 1 FROM slack_views WHERE app_user = ? AND external_id = ?').get(app.id, external)
      )
        throw new SlackApiError('duplicate_external_id')
      stmt(db, 'UPDATE slack_views SET view = ?, external_id = ?, hash = ?, updated = ? WHERE id = ?').run(
        JSON.stringify(view),
        external,
        newHash(db, r.id),
        nowSec(db),
        r.id,
      )
      return { view: viewWire(db, stmt(db, 'SELECT * FROM slack_views WHERE id = ?').get(r.id) as ViewRow) }
    }),
})

slackMethod(viewsRouter, {
  name: 'views.publish',
  args: z.object({ user_id: opt(), view: z.unknown().optional(), hash: opt() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      const app = me(c)
      const user = a.user_id ? userById(db, a.user_id) : undefined
      if (!user || user.deleted) throw new SlackApiError('invalid_arguments')
      const view = parseView(a.view, 'home')
      const r = stmt(db, "SELECT * FROM slack_views WHERE app_user = ? AND user_id = ? AND type = 'home'").get(
        app.id,
        user.id,
      ) as ViewRow | undefined
      if (!r) return { view: viewWire(db, insertView(db, app, 'home', user.id, view)) }
      if (a.hash !== undefined && a.hash !== r.hash) throw new SlackApiError('hash_conflict')
      stmt(db, 'UPDATE slack_views SET view = ?, hash = ?, updated = ? WHERE id = ?').run(
        JSON.stringify(view),
        newHash(db, r.id),
        nowSec(db),
        r.id,
      )
      return { view: viewWire(db, stmt(db, 'SELECT * FROM slack_views WHERE id = ?').get(r.id) as ViewRow) }
    }),
})

const DialogElement = z
  .object({
    type: z.enum(['text', 'textarea', 'select']),
    label: z.string().min(1).max(48),
    name: z.string().min(1).max(300),
    optional: z.boolean().optional(),
    placeholder: z.string().max(150).optional(),
    value: z.string().optional(),
    hint: z.string().max(150).optional(),
    subtype: z.enum(['email', 'number', 'tel', 'url']).optional(),
    max_length: z.number().int().optional(),
    min_length: z.number().int().optional(),
    options: z
      .array(z.object({ label: z.string(), value: z.string() }))
      .max(100)
      .optional(),
    data_source: z.string().optional(),
  })
  .passthrough()
const Dialog = z
  .object({
    title: z.string().min(1).max(24),
    callback_id: z.string().min(1).max(255),
    elements: z.array(DialogElement).min(1).max(10),
    submit_label: z.string().max(24).regex(/^\S+$/).optional(),
    notify_on_cancel: z.boolean().optional(),
    state: z.string().max(3000).optional(),
  })
  .passthrough()

slackMethod(viewsRouter, {
  name: 'dialog.open',
  args: z.object({ trigger_id: opt(), dialog: z.unknown().optional() }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      let raw = a.dialog
      if (typeof raw === 'string') {
        try {
          raw = parseJsonWithin(raw)
        } catch {
          throw new SlackApiError('invalid_json')
        }
      }
      if (!raw) throw new SlackApiError('missing_dialog')
      if (!a.trigger_id) throw new SlackApiError('missing_trigger')
      const parsed = Dialog.safeParse(raw)
      if (!parsed.success) {
        throw new SlackApiError('validation_errors', {
          response_metadata: {
            messages: parsed.error.issues
              .slice(0, 5)
              .map((i) => `${i.message} [json-pointer:/dialog/${i.path.join('/')}]`),
          },
        })
      }
      const names = parsed.data.elements.map((e) => e.name)
      if (new Set(names).size !== names.length)
        throw new SlackApiError('validation_errors', {
          response_metadata: { messages: ['element names must be unique [json-pointer:/dialog/elements]'] },
        })
      const trigger = checkTrigger(a.trigger_id, 'invalid_trigger')
      const app = me(c)
      insertView(db, app, 'dialog', viewer(c, app), parsed.data, undefined, undefined, trigger)
      return {}
    }),
})

const parseArg = (v: unknown) => {
  if (typeof v !== 'string') return v
  try {
    return parseJsonWithin(v)
  } catch {
    return Symbol.for('invalid')
  }
}

// blocks.validate: exactly one of blocks, message or view, checked against Block Kit's rules.
slackMethod(viewsRouter, {
  name: 'blocks.validate',
  args: z.object({ blocks: z.unknown().optional(), message: z.unknown().optional(), view: z.unknown().optional() }),
  handler: (c, a) => {
    me(c)
    const given = (['blocks', 'message', 'view'] as const).filter((k) => a[k] !== undefined)
    if (given.length !== 1) throw new SlackApiError('invalid_arguments')
    const kind = given[0]!
    const value = parseArg(a[kind])
    let errors: BlockError[]
    if (typeof value === 'symbol') errors = [{ pointer: '/', code: 'invalid_json', message: 'must be valid JSON' }]
    else if (kind === 'blocks') errors = validateBlocks(value, '', 50)
    else if (kind === 'message') {
      const m = value as { blocks?: unknown; text?: unknown } | null
      errors =
        !m || typeof m !== 'object'
          ? [{ pointer: '/', code: 'invalid_type', message: 'must be an object' }]
          : m.blocks === undefined
            ? typeof m.text === 'string' && m.text
              ? []
              : [{ pointer: '/text', code: 'missing_required_field', message: 'must provide text or blocks' }]
            : validateBlocks(m.blocks, '/blocks', 50)
    } else {
      const v = value as { type?: unknown; blocks?: unknown; title?: unknown } | null
      errors = []
      if (!v || typeof v !== 'object') errors.push({ pointer: '/', code: 'invalid_type', message: 'must be an object' })
      else {
        if (v.type !== 'modal' && v.type !== 'home')
          errors.push({ pointer: '/type', code: 'invalid_type', message: "must be 'modal' or 'home'" })
        if (
          v.type === 'modal' &&
          !(
            v.title &&
            typeof v.title === 'object' &&
            typeof (v.title as { text?: unknown }).text === 'string' &&
            (v.title as { text: string }).text.length <= 24
          )
        ) {
          errors.push({
            pointer: '/title',
            code: 'failed_constraint',
            message: 'must be a plain_text object of at most 24 characters',
          })
        }
        errors.push(...validateBlocks(v.blocks, '/blocks', 100))
      }
    }
    if (errors.length) throw new SlackApiError(`invalid_${kind === 'blocks' ? 'blocks' : kind}`, { errors })
    return {}
  },
})
