import { describe, expect, it } from 'vitest'
import { slack } from '../../envs/slack/index.ts'
import { slackWorld } from './helpers.ts'

const schema = [
  { key: 'task', name: 'Task', type: 'text', is_primary_column: true },
  { key: 'owner', name: 'Owner', type: 'user' },
  {
    key: 'status',
    name: 'Status',
    type: 'select',
    options: {
      choices: [
        { value: 'todo', label: 'To do' },
        { value: 'done', label: 'Done' },
      ],
    },
  },
  { key: 'points', name: 'Points', type: 'number' },
]
async function launchList(w: ReturnType<typeof slackWorld>, user = 'bob') {
  const r = await w.api('slackLists.create', { name: 'Launch', schema }, user)
  const col = (key: string) => r.list_metadata.schema.find((c: { key: string }) => c.key === key).id as string
  return { id: r.list_id as string, col }
}

describe('slackLists.create', () => {
  it('creates a list with typed columns; bad schemas are refused; todo_mode adds the to-do columns', async () => {
    const w = slackWorld()
    const r = await w.api('slackLists.create', { name: 'Launch', schema }, 'bob')
    expect(r.list_id).toMatch(/^F/)
    expect(r.list_metadata.schema.map((c: { key: string; id: string }) => [c.key, c.id.slice(0, 3)])).toEqual([
      ['task', 'Col'],
      ['owner', 'Col'],
      ['status', 'Col'],
      ['points', 'Col'],
    ])
    expect(
      (
        await w.api('slackLists.create', {
          name: 'x',
          schema: [{ key: 'a', name: 'A', type: 'hologram', is_primary_column: true }],
        })
      ).error,
    ).toBe('invalid_column_type')
    expect(
      (await w.api('slackLists.create', { name: 'x', schema: [{ key: 'a', name: 'A', type: 'text' }] })).error,
    ).toBe('invalid_schema')
    expect((await w.api('slackLists.create', {})).error).toBe('invalid_arguments')
    const todo = await w.api('slackLists.create', { name: 'Chores', todo_mode: true })
    expect(todo.list_metadata.schema.map((c: { type: string }) => c.type)).toEqual([
      'text',
      'todo_completed',
      'todo_assignee',
      'todo_due_date',
    ])
  })
})

describe('slackLists.items.create', () => {
  it('adds items with typed cells listed by items.list and read by items.info with subtasks', async () => {
    const w = slackWorld()
    const { id, col } = await launchList(w)
    const carol = await w.uid('carol')
    const item = (
      await w.api(
        'slackLists.items.create',
        {
          list_id: id,
          initial_fields: [
            { column_id: col('task'), text: 'Write release notes' },
            { column_id: col('owner'), user: [carol] },
            { column_id: col('status'), select: ['todo'] },
          ],
        },
        'bob',
      )
    ).item
    expect(item.id).toMatch(/^Rec/)
    expect(item.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'task', text: 'Write release notes' }),
        expect.objectContaining({ key: 'owner', user: [carol] }),
      ]),
    )
    expect(
      (
        await w.api(
          'slackLists.items.create',
          { list_id: id, initial_fields: [{ column_id: col('status'), select: ['maybe'] }] },
          'bob',
        )
      ).error,
    ).toBe('invalid_cell_value')
    expect(
      (
        await w.api(
          'slackLists.items.create',
          { list_id: id, initial_fields: [{ column_id: 'ColNOPE', text: 'x' }] },
          'bob',
        )
      ).error,
    ).toBe('invalid_column_id')
    const sub = (
      await w.api(
        'slackLists.items.create',
        { list_id: id, parent_item_id: item.id, initial_fields: [{ column_id: col('task'), text: 'Draft' }] },
        'bob',
      )
    ).item
    expect(sub.parent_record_id).toBe(item.id)
    expect((await w.api('slackLists.items.list', { list_id: id }, 'bob')).items).toHaveLength(2)
    const info = await w.api('slackLists.items.info', { list_id: id, id: item.id }, 'bob')
    expect(info.list).toMatchObject({ id, name: 'Launch' })
    expect(info.subtasks.map((s: { id: string }) => s.id)).toEqual([sub.id])
    expect((await w.api('slackLists.items.info', { list_id: id, id: 'RecNOPE' }, 'bob')).error).toBe('item_not_found')
  })
})

describe('slackLists.items.update', () => {
  it('updates cells atomically across rows; slackLists.update renames the list', async () => {
    const w = slackWorld()
    const { id, col } = await launchList(w)
    const a = (
      await w.api(
        'slackLists.items.create',
        { list_id: id, initial_fields: [{ column_id: col('task'), text: 'A' }] },
        'bob',
      )
    ).item.id
    expect(
      (
        await w.api(
          'slackLists.items.update',
          {
            list_id: id,
            cells: [
              { row_id: a, column_id: col('status'), select: ['done'] },
              { row_id: a, column_id: col('points'), number: [3] },
            ],
          },
          'bob',
        )
      ).ok,
    ).toBe(true)
    const fields = (await w.api('slackLists.items.info', { list_id: id, id: a }, 'bob')).record.fields
    expect(fields.find((f: { key: string }) => f.key === 'status').select).toEqual(['done'])
    expect(fields.find((f: { key: string }) => f.key === 'points').number).toEqual([3])
    expect(
      (
        await w.api(
          'slackLists.items.update',
          {
            list_id: id,
            cells: [
              { row_id: a, column_id: col('task'), text: 'B' },
              { row_id: 'RecNOPE', column_id: col('task'), text: 'C' },
            ],
          },
          'bob',
        )
      ).error,
    ).toBe('item_not_found')
    expect((await w.api('slackLists.items.info', { list_id: id, id: a }, 'bob')).record.fields[0].text).toBe('A')
    expect((await w.api('slackLists.update', { id, name: 'Launch v2' }, 'bob')).ok).toBe(true)
    const dumped = (slack.dump(w.h.entry.world).entities.lists as Record<string, { name: string; items: unknown[] }>)[
      id
    ]!
    expect(dumped).toMatchObject({ name: 'Launch v2', items: [expect.objectContaining({ id: a })] })
  })
})

describe('slackLists.items.delete', () => {
  it('deletes one item with its subtasks; items.deleteMultiple deletes several or none', async () => {
    const w = slackWorld()
    const { id, col } = await launchList(w)
    const mk = async (text: string, parent?: string) =>
      (
        await w.api(
          'slackLists.items.create',
          {
            list_id: id,
            ...(parent ? { parent_item_id: parent } : {}),
            initial_fields: [{ column_id: col('task'), text }],
          },
          'bob',
        )
      ).item.id as string
    const [a, b, c] = [await mk('a'), await mk('b'), await mk('c')]
    await mk('a1', a)
    expect((await w.api('slackLists.items.delete', { list_id: id, id: a }, 'bob')).ok).toBe(true)
    expect(
      (await w.api('slackLists.items.list', { list_id: id }, 'bob')).items.map((i: { id: string }) => i.id),
    ).toEqual([b, c])
    expect((await w.api('slackLists.items.deleteMultiple', { list_id: id, ids: `${b},RecNOPE` }, 'bob')).error).toBe(
      'item_not_found',
    )
    expect((await w.api('slackLists.items.deleteMultiple', { list_id: id, ids: [b, c] }, 'bob', true)).ok).toBe(true)
    expect((await w.api('slackLists.items.list', { list_id: id }, 'bob')).items).toEqual([])
  })
})

describe('slackLists.access.set', () => {
  it('shares a list with a channel or user; others get list_not_found; slackLists.access.delete revokes', async () => {
    const w = slackWorld()
    const { id, col } = await launchList(w)
    const add = { list_id: id, initial_fields: [{ column_id: col('task'), text: 'x' }] }
    expect((await w.api('slackLists.items.list', { list_id: id }, 'carol')).error).toBe('list_not_found')
    expect(
      (
        await w.api(
          'slackLists.access.set',
          { list_id: id, access_level: 'read', channel_ids: await w.channel('engineering') },
          'bob',
        )
      ).ok,
    ).toBe(true)
    expect((await w.api('slackLists.items.list', { list_id: id }, 'carol')).ok).toBe(true)
    expect((await w.api('slackLists.items.create', add, 'carol')).error).toBe('access_denied')
    expect(
      (
        await w.api(
          'slackLists.access.set',
          { list_id: id, access_level: 'write', user_ids: await w.uid('carol') },
          'bob',
        )
      ).ok,
    ).toBe(true)
    expect((await w.api('slackLists.items.create', add, 'carol')).ok).toBe(true)
    expect(
      (
        await w.api(
          'slackLists.access.set',
          { list_id: id, access_level: 'write', user_ids: await w.uid('dan') },
          'carol',
        )
      ).error,
    ).toBe('access_denied')
    expect((await w.api('slackLists.access.delete', { list_id: id, user_ids: await w.uid('carol') }, 'bob')).ok).toBe(
      true,
    )
    expect((await w.api('slackLists.items.create', add, 'carol')).error).toBe('access_denied')
    expect(
      (
        await w.api(
          'slackLists.access.set',
          { list_id: id, access_level: 'bogus', user_ids: await w.uid('dan') },
          'bob',
        )
      ).error,
    ).toBe('invalid_arguments')
  })
})

describe('slackLists.download.start', () => {
  it('exports the list as CSV behind a private URL from slackLists.download.get', async () => {
    const w = slackWorld()
    const { id, col } = await launchList(w)
    await w.api(
      'slackLists.items.create',
      {
        list_id: id,
        initial_fields: [
          { column_id: col('task'), text: 'Ship, then celebrate' },
          { column_id: col('points'), number: [5] },
        ],
      },
      'bob',
    )
    const job = (await w.api('slackLists.download.start', { list_id: id }, 'bob')).job_id
    const got = await w.api('slackLists.download.get', { list_id: id, job_id: job }, 'bob')
    expect(got.status).toBe('COMPLETED')
    const path = new URL(got.download_url).pathname
    const res = await w.h.call('GET', path, { token: w.h.slack('bob') })
    expect(res.status).toBe(200)
    expect(res.text).toBe('Task,Owner,Status,Points\n"Ship, then celebrate",,,5\n')
    expect((await w.h.call('GET', path, { token: w.h.slack('carol') })).status).toBe(404)
    expect((await w.h.call('GET', path, { token: null })).status).toBe(401)
    expect((await w.api('slackLists.download.get', { list_id: id, job_id: 'LeJNOPE' }, 'bob')).error).toBe(
      'job_not_found',
    )
    expect((await w.api('slackLists.download.start', { list_id: id }, 'carol')).error).toBe('list_not_found')
  })
})
