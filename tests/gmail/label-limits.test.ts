import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

const U = '/gmail/v1/users/me'

/** One user whose mailbox is seeded with `labels` user labels and `filters` filters (in bulk, not over HTTP). */
const seedWith = (labels: number, filters = 0) => ({
  name: `gmail-limits-${labels}-${filters}`,
  now: '2026-03-10T15:00:00Z',
  users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann Lee' }],
  gmail: {
    labels: [
      { user: 'ann', name: 'Équipe' },
      ...Array.from({ length: labels - 1 }, (_, i) => ({ user: 'ann', name: `Project ${i}` })),
    ],
    filters: Array.from({ length: filters }, (_, i) => ({
      user: 'ann',
      criteria: { from: `sender${i}@example.org` },
      action: { removeLabelIds: ['INBOX'] },
    })),
  },
})

describe('gmail.users.labels.create', () => {
  test('finds a clash among thousands of labels case-insensitively, non-ASCII letters too', async () => {
    const h = harness(seedWith(3000))
    const clash = await h.call('POST', `${U}/labels`, { json: { name: 'PROJECT 2998' } })
    expect(clash.status).toBe(409)
    expect(clash.body.error.message).toBe('Label name exists or conflicts')
    // JavaScript's lower case, as names were compared before the index: SQLite's lower() would miss É/é.
    expect((await h.call('POST', `${U}/labels`, { json: { name: 'éQUIPE' } })).status).toBe(409)
    expect((await h.call('POST', `${U}/labels`, { json: { name: ' inbox ' } })).status).toBe(400)
    expect((await h.call('POST', `${U}/labels`, { json: { name: 'Project 3000' } })).status).toBe(200)
    expect((await h.call('POST', `${U}/labels`, { json: { name: 'project 3000' } })).status).toBe(409)
  })

  test('refuses a label past 10,000 in the mailbox, system labels included, until one is deleted', async () => {
    const h = harness(seedWith(9980))
    const all = (await h.call('GET', `${U}/labels`)).body.labels as { id: string; type: string }[]
    expect(all.filter((l) => l.type === 'system').length).toBeGreaterThan(0)
    for (let n = all.length; n < 10_000; n++)
      expect((await h.call('POST', `${U}/labels`, { json: { name: `Extra ${n}` } })).status).toBe(200)
    const over = await h.call('POST', `${U}/labels`, { json: { name: 'One too many' } })
    expect(over.status).toBe(400)
    expect(over.body.error).toMatchObject({
      status: 'FAILED_PRECONDITION',
      message: 'Too many labels: a mailbox can have at most 10,000 labels.',
      errors: [{ reason: 'failedPrecondition' }],
    })
    // A rename is no new label: it is let through at the limit.
    const last = (await h.call('GET', `${U}/labels`)).body.labels.at(-1) as { id: string }
    expect((await h.call('PATCH', `${U}/labels/${last.id}`, { json: { name: 'Renamed' } })).status).toBe(200)
    expect((await h.call('DELETE', `${U}/labels/${last.id}`)).status).toBe(204)
    expect((await h.call('POST', `${U}/labels`, { json: { name: 'One too many' } })).status).toBe(200)
  })
})

describe('gmail.users.labels.patch', () => {
  test('keeps the index in step with renames: the old name is free, the new one clashes', async () => {
    const h = harness(seedWith(50))
    const labels = (await h.call('GET', `${U}/labels`)).body.labels as { id: string; name: string }[]
    const id = labels.find((l) => l.name === 'Project 7')!.id
    expect((await h.call('PATCH', `${U}/labels/${id}`, { json: { name: 'Archive 2025' } })).status).toBe(200)
    // Its own name in another case is no clash with itself.
    expect((await h.call('PATCH', `${U}/labels/${id}`, { json: { name: 'ARCHIVE 2025' } })).status).toBe(200)
    expect((await h.call('POST', `${U}/labels`, { json: { name: 'archive 2025' } })).status).toBe(409)
    expect((await h.call('POST', `${U}/labels`, { json: { name: 'project 7' } })).status).toBe(200)
    const other = labels.find((l) => l.name === 'Project 8')!.id
    expect((await h.call('PUT', `${U}/labels/${other}`, { json: { name: 'Archive 2025' } })).status).toBe(409)
  })
})

describe('gmail.users.settings.filters.create', () => {
  test('refuses a filter past 1,000 until one is deleted', async () => {
    const h = harness(seedWith(1, 999))
    const S = `${U}/settings/filters`
    const make = (from: string) =>
      h.call('POST', S, { json: { criteria: { from }, action: { addLabelIds: ['STARRED'] } } })
    expect((await make('last@example.org')).status).toBe(200)
    expect((await h.call('GET', S)).body.filter).toHaveLength(1000)
    const over = await make('over@example.org')
    expect(over.status).toBe(400)
    expect(over.body.error).toMatchObject({
      message: 'Too many filters: a user can have at most 1,000 filters.',
      errors: [{ reason: 'failedPrecondition' }],
    })
    const first = (await h.call('GET', S)).body.filter[0] as { id: string }
    expect((await h.call('DELETE', `${S}/${first.id}`)).status).toBe(204)
    expect((await make('over@example.org')).status).toBe(200)
  })
})
