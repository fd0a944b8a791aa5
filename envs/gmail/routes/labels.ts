import { insertRow, stmt, storedText } from '../../core/db.ts'
import { createRoute, z } from '@hono/zod-openapi'
import { createGoogleRouter, type WorldContext } from '../../core/http.ts'
import { alreadyExists, badRequest, failedPrecondition, notFound } from '../../core/errors/google.ts'
import { nextCounter } from '../../core/ids.ts'
import { Label } from '../api/schemas.gen.ts'
import { labels } from '../schema.ts'
import { toLabel } from '../map.ts'
import { findLabel, labelCount, labelNameKey, labelsNamed, listLabels, SYSTEM_LABEL_IDS } from '../store/mailbox.ts'
import type { WorldUserRow } from '../../core/world-tables.ts'
import { json, jsonBody, mailboxOf, UserIdParam, UserParam } from './common.ts'
import { modifyLabels } from '../store/messages.ts'

const base = '/gmail/v1/users/{userId}/labels'

/** The colours Gmail accepts for labels (its fixed palette). */
export const LABEL_PALETTE = new Set(
  '#000000 #434343 #666666 #999999 #cccccc #efefef #f3f3f3 #ffffff #fb4c2f #ffad47 #fad165 #16a766 #43d692 #4a86e8 #a479e2 #f691b3 #f6c5be #ffe6c7 #fef1d1 #b9e4d0 #c6f3de #c9daf8 #e4d7f5 #fcdee8 #efa093 #ffd6a2 #fce8b3 #89d3b2 #a0eac9 #a4c2f4 #d0bcf1 #fbc8d9 #e66550 #ffbc6b #fcda83 #44b984 #68dfa9 #6d9eeb #b694e8 #f7a7c0 #cc3a21 #eaa041 #f2c960 #149e60 #3dc789 #3c78d8 #8e63ce #e07798 #ac2b16 #cf8933 #d5ae49 #0b804b #2a9c68 #285bac #653e9b #b65775 #822111 #a46a21 #aa8831 #076239 #1a764d #1c4587 #41236d #83334c #464646 #e7e7e7 #0d3472 #b6cff5 #0d3b44 #98d7e4 #3d188e #e3d7ff #711a36 #fbd3e0 #8a1c0a #f2b2a8 #7a2e0b #ffc8af #7a4706 #ffdeb5 #594c05 #fbe983 #684e07 #fdedc1 #0b4f30 #b3efd3 #04502e #a2dcc1 #c2c2c2 #4986e7 #2da2bb #b99aff #994a64 #f691b2 #ff7537 #ffad46 #662e37 #ebdbde #cca6ac #094228 #42d692 #16a765'.split(
    ' ',
  ),
)

/** Per-label totals, computed from the one label table so counts, search and history agree. */
function counts(c: WorldContext, userId: string, labelId: string) {
  const q = (sql: string) => (stmt(c.var.world.db, sql).get(userId, labelId) as { n: number }).n
  const inLabel =
    'FROM gmail_message_labels l JOIN gmail_messages m ON m.user_id = l.user_id AND m.id = l.message_id WHERE l.user_id = ? AND l.label_id = ?'
  const unread =
    "AND EXISTS (SELECT 1 FROM gmail_message_labels u WHERE u.user_id = m.user_id AND u.message_id = m.id AND u.label_id = 'UNREAD')"
  return {
    messagesTotal: q(`SELECT count(*) AS n ${inLabel}`),
    messagesUnread: q(`SELECT count(*) AS n ${inLabel} ${unread}`),
    threadsTotal: q(`SELECT count(DISTINCT m.thread_id) AS n ${inLabel}`),
    threadsUnread: q(`SELECT count(DISTINCT m.thread_id) AS n ${inLabel} ${unread}`),
  }
}

type LabelInput = {
  name?: string
  messageListVisibility?: string
  labelListVisibility?: string
  color?: { textColor?: string; backgroundColor?: string }
}

/** Checks a label's input; its name becomes the name as stored, so a clash and the answer are judged on that. */
function validate(c: WorldContext, user: WorldUserRow, input: LabelInput, selfId?: string) {
  if (input.name !== undefined) {
    input.name = storedText(c.var.world.db, input.name)
    const name = input.name.trim()
    if (name === '' || name.length > 225) throw badRequest('Invalid label name', 'invalidArgument')
    if (SYSTEM_LABEL_IDS.has(name.toUpperCase())) throw badRequest('Invalid label name', 'invalidArgument')
    // Names clash case-insensitively (JavaScript's lower case, as ever), read through the name-key index.
    const clash = labelsNamed(c.var.world.db, user.id, name).some((id) => id !== selfId)
    if (clash) throw alreadyExists('Label name exists or conflicts', 'duplicate')
  }
  if (input.color) {
    const { textColor, backgroundColor } = input.color
    for (const col of [textColor, backgroundColor])
      if (col !== undefined && !LABEL_PALETTE.has(col.toLowerCase()))
        throw badRequest(`Label color ${col} is not on the allowed color palette`, 'invalidArgument')
  }
}

function requireUserLabel(c: WorldContext, user: WorldUserRow, id: string) {
  const row = findLabel(c.var.world.db, user.id, id)
  if (!row) throw notFound()
  if (row.type === 'system') throw badRequest('Invalid label', 'invalidArgument')
  return row
}

const list = createRoute({
  operationId: 'gmail.users.labels.list',
  method: 'get',
  path: base,
  request: { params: UserParam },
  responses: { 200: json(z.object({ labels: z.array(Label) })) },
})
const get = createRoute({
  operationId: 'gmail.users.labels.get',
  method: 'get',
  path: `${base}/{id}`,
  request: { params: UserIdParam },
  responses: { 200: json(Label) },
})
const create = createRoute({
  operationId: 'gmail.users.labels.create',
  method: 'post',
  path: base,
  request: { params: UserParam, body: jsonBody(Label) },
  responses: { 200: json(Label) },
})
const update = createRoute({
  operationId: 'gmail.users.labels.update',
  method: 'put',
  path: `${base}/{id}`,
  request: { params: UserIdParam, body: jsonBody(Label) },
  responses: { 200: json(Label) },
})
const patch = createRoute({
  operationId: 'gmail.users.labels.patch',
  method: 'patch',
  path: `${base}/{id}`,
  request: { params: UserIdParam, body: jsonBody(Label) },
  responses: { 200: json(Label) },
})
const remove = createRoute({
  operationId: 'gmail.users.labels.delete',
  method: 'delete',
  path: `${base}/{id}`,
  request: { params: UserIdParam },
  responses: { 204: { description: 'Deleted' } },
})

const UPDATE_LABEL =
  'UPDATE gmail_labels SET name = ?, name_key = ?, message_list_visibility = ?, label_list_visibility = ?, ' +
  'text_color = ?, background_color = ? WHERE user_id = ? AND id = ?'

/**
 * Labels a mailbox may hold, system labels included ("The maximum number of labels supported for a user's mailbox
 * is 10,000": the Label resource's description in Gmail's discovery document).
 */
export const MAX_LABELS = 10_000

// Deviation (unverified): Gmail's answer past the limit is not documented; this reason and message are ours.
const tooManyLabels = () => failedPrecondition('Too many labels: a mailbox can have at most 10,000 labels.')

function write(c: WorldContext, user: WorldUserRow, id: string, input: LabelInput, replace: boolean) {
  const current = requireUserLabel(c, user, id)
  if (replace && !input.name) throw badRequest('Invalid label name', 'invalidArgument')
  validate(c, user, input, id)
  const next = {
    name: input.name?.trim() ?? current.name,
    messageListVisibility: input.messageListVisibility ?? (replace ? null : current.messageListVisibility),
    labelListVisibility: input.labelListVisibility ?? (replace ? null : current.labelListVisibility),
    textColor: input.color ? (input.color.textColor ?? null) : replace ? null : current.textColor,
    backgroundColor: input.color ? (input.color.backgroundColor ?? null) : replace ? null : current.backgroundColor,
  }
  const n = next
  const values = [
    n.name,
    labelNameKey(n.name),
    n.messageListVisibility,
    n.labelListVisibility,
    n.textColor,
    n.backgroundColor,
    user.id,
    id,
  ]
  c.var.world.tx((db) => stmt(db, UPDATE_LABEL).run(...values))
  return toLabel(findLabel(c.var.world.db, user.id, id)!)
}

const TAGGED = 'SELECT message_id FROM gmail_message_labels WHERE user_id = ? AND label_id = ? ORDER BY message_id'

export const labelsRouter = createGoogleRouter()
  .openapi(list, (c) => {
    const user = mailboxOf(c, c.req.valid('param').userId)
    return c.json({ labels: listLabels(c.var.world.db, user.id).map((l) => toLabel(l)) } as never, 200)
  })
  .openapi(get, (c) => {
    const { userId, id } = c.req.valid('param')
    const user = mailboxOf(c, userId)
    const row = findLabel(c.var.world.db, user.id, id)
    if (!row) throw notFound()
    return c.json(toLabel(row, counts(c, user.id, id)) as never, 200)
  })
  .openapi(create, (c) => {
    const user = mailboxOf(c, c.req.valid('param').userId)
    const input = c.req.valid('json') as LabelInput
    if (!input.name) throw badRequest('Invalid label name', 'invalidArgument')
    validate(c, user, input)
    if (labelCount(c.var.world.db, user.id) >= MAX_LABELS) throw tooManyLabels()
    const row = c.var.world.tx((db) => {
      const id = `Label_${nextCounter(db, `gmail.label.${user.id}`)}`
      const values = {
        userId: user.id,
        id,
        name: input.name!.trim(),
        nameKey: labelNameKey(input.name!.trim()),
        type: 'user' as const,
        messageListVisibility: input.messageListVisibility ?? 'show',
        labelListVisibility: input.labelListVisibility ?? 'labelShow',
        textColor: input.color?.textColor ?? null,
        backgroundColor: input.color?.backgroundColor ?? null,
      }
      insertRow(db, labels, values)
      return values
    })
    const { type: _t, ...out } = toLabel(row) as Record<string, unknown>
    return c.json(out as never, 200)
  })
  .openapi(update, (c) =>
    c.json(
      write(
        c,
        mailboxOf(c, c.req.valid('param').userId),
        c.req.valid('param').id,
        c.req.valid('json') as LabelInput,
        true,
      ) as never,
      200,
    ),
  )
  .openapi(patch, (c) =>
    c.json(
      write(
        c,
        mailboxOf(c, c.req.valid('param').userId),
        c.req.valid('param').id,
        c.req.valid('json') as LabelInput,
        false,
      ) as never,
      200,
    ),
  )
  .openapi(remove, (c) => {
    const { userId, id } = c.req.valid('param')
    const user = mailboxOf(c, userId)
    requireUserLabel(c, user, id)
    c.var.world.tx((db) => {
      // Message id order: the order the label's rows were read in before (the primary key index serves it).
      const tagged = stmt(db, TAGGED).pluck().all(user.id, id) as string[]
      for (const messageId of tagged) modifyLabels(db, user.id, messageId, [], [id])
      stmt(db, 'DELETE FROM gmail_labels WHERE user_id = ? AND id = ?').run(user.id, id)
    })
    return c.body(null, 204)
  })
