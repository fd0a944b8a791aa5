import { describe, expect, test } from 'vitest'
import { harness, type Harness } from '../../envs/core/testing/harness.ts'
import { statementsDuring } from '../../envs/core/db.ts'
import { findUserById } from '../../envs/core/users.ts'
import { rootIdOf } from '../../envs/drive/map.ts'
import { parseDriveQuery } from '../../envs/drive/query/parse.ts'
import { orderSql } from '../../envs/drive/routes/order.ts'
import { listing } from '../../envs/drive/store/visibility.ts'
import { q } from './fixtures.ts'

const F = '/drive/v3/files'
const FOLDER = 'application/vnd.google-apps.folder'
const ALL_DRIVES = '&corpora=allDrives&includeItemsFromAllDrives=true&supportsAllDrives=true'

/**
 * Ann's top level (files and folders, few distinct times so names and ids decide much of the order), a folder of
 * hers, Ben's files shared with her at his top level, and, with `literal`, Ben's files a seed put under Ann's root
 * id itself (one shared with her, one not).
 */
function seed(literal: boolean) {
  const names = ['report q1', 'Report final', 'notes', 'report-draft', 'Budget report', 'plan']
  const top = Array.from({ length: 14 }, (_, i) => ({
    name: names[i % names.length]!,
    mimeType: i % 5 === 0 ? FOLDER : 'text/plain',
    owner: 'ann',
    starred: i % 3 === 0,
    trashed: i % 7 === 3,
    at: `2026-03-0${1 + (i % 3)}T10:00:00Z`,
  }))
  const shared = [{ type: 'user' as const, role: 'reader' as const, user: 'ann' }]
  const ben = [
    { name: 'report from ben', owner: 'ben', permissions: shared },
    { name: 'ben private report', owner: 'ben' },
  ]
  const underRoot = literal
    ? [
        {
          id: 'literalRootShared01',
          name: 'report under root id',
          owner: 'ben',
          parent: rootIdOf('ann'),
          permissions: shared,
        },
        { id: 'literalRootHidden01', name: 'report hidden under root id', owner: 'ben', parent: rootIdOf('ann') },
      ]
    : []
  return {
    name: 'root-listing',
    now: '2026-03-10T15:00:00Z',
    users: [
      { id: 'ann', email: 'ann@example.com', name: 'Ann' },
      { id: 'ben', email: 'ben@example.com', name: 'Ben' },
    ],
    drive: {
      files: [
        { key: 'box', name: 'Box report', mimeType: FOLDER, owner: 'ann' },
        { name: 'report inside box', owner: 'ann', parent: 'box' },
        ...top,
        ...ben,
        ...underRoot,
      ],
    },
  }
}

/** Every id of a listing, walked page by page. */
async function walk(h: Harness, query: string, orderBy: string | undefined, extra: string) {
  const ids: string[] = []
  let token: string | undefined
  do {
    const order = orderBy ? `&orderBy=${q(orderBy)}` : ''
    const page = token ? `&pageToken=${token}` : ''
    const res = await h.call('GET', `${F}?q=${q(query)}&pageSize=3${order}${extra}${page}`)
    expect(res.status, res.text).toBe(200)
    ids.push(...(res.body.files as { id: string }[]).map((f) => f.id))
    token = res.body.nextPageToken
  } while (token)
  return ids
}

const QUERIES = [
  "'root' in parents",
  "name contains 'report' and 'root' in parents",
  "'root' in parents and trashed = false",
  `'root' in parents and mimeType = '${FOLDER}'`,
  "starred = true and 'root' in parents",
  "'root' in parents or name contains 'ben'",
  "not 'root' in parents",
]
const ORDERS = [undefined, 'name', 'modifiedTime desc', 'folder,name desc', 'createdTime']

describe('drive.files.list in the root folder', () => {
  for (const literal of [false, true]) {
    const title = `pages as the judged and sorted listing does${literal ? ', with files under the root id itself' : ''}`
    test(title, async () => {
      const h = harness(seed(literal))
      for (const query of QUERIES) {
        for (const orderBy of ORDERS) {
          // My Drive pages in SQL; allDrives judges every candidate in JavaScript and sorts there.
          const sql = await walk(h, query, orderBy, '')
          const judged = await walk(h, query, orderBy, ALL_DRIVES)
          expect(sql, `${query} by ${orderBy}`).toEqual(judged)
        }
      }
      const names = async (query: string) => {
        const res = await h.call('GET', `${F}?q=${q(query)}&fields=files(name)`)
        return (res.body.files as { name: string }[]).map((f) => f.name)
      }
      const root = await names("'root' in parents")
      expect(root).toHaveLength(15 + (literal ? 1 : 0))
      expect(root).not.toContain('report from ben')
      expect(root).not.toContain('report hidden under root id')
      expect(root.includes('report under root id')).toBe(literal)
      expect(await names(`'${rootIdOf('ann')}' in parents`)).toEqual(root)
    })
  }

  test('reads one range of the parents index in order, without the reach walk, when no file names the root id', () => {
    const plan = (literal: boolean) => {
      const h = harness(seed(literal))
      const db = h.entry.world.db
      const ann = findUserById(db, 'ann')!
      const cond = parseDriveQuery("name contains 'report' and 'root' in parents")
      const found = listing(db, ann, cond, { myDriveOnly: true })
      const seen = statementsDuring(db.$client, () => found.page(orderSql(undefined), 0, 3))
      const sql = seen.sql.find((s) => s.includes('/* listable */'))!
      const named = {
        owner: 'ann',
        now: 0,
        email: 'ann@example.com',
        domain: 'example.com',
        groups: '[]',
        limit: 4,
        offset: 0,
      }
      const args = literal ? [' report', 'ann', JSON.stringify([rootIdOf('ann')])] : [' report', 'ann']
      const detail = (db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args, named) as { detail: string }[]).map(
        (r) => r.detail,
      )
      return { sql, detail, views: found.page(orderSql(undefined), 0, 3).views.length }
    }
    const own = plan(false)
    expect(own.detail).toEqual(['SEARCH f USING INDEX drive_files_by_parent_listing (parents=?)'])
    expect(own.sql).not.toContain('reach')
    expect(own.views).toBe(3)
    // A file under the root id itself may be someone else's: the listing keeps the reach walk.
    const literal = plan(true)
    expect(literal.sql).toContain('reach')
    expect(literal.views).toBe(3)
  })
})

describe('drive.files.create', () => {
  test('answers kind, id, name and mimeType without fields, and the stored file with them', async () => {
    const h = harness(seed(false))
    const plain = await h.call('POST', F, { json: { name: 'fresh report', mimeType: 'text/plain' } })
    expect(plain.status).toBe(200)
    expect(plain.body).toEqual({ kind: 'drive#file', id: plain.body.id, name: 'fresh report', mimeType: 'text/plain' })
    expect(Object.keys(plain.body)).toEqual(['kind', 'id', 'name', 'mimeType'])
    const full = await h.call('POST', `${F}?fields=*`, { json: { name: 'full report', mimeType: 'text/plain' } })
    const owner = { role: 'owner', emailAddress: 'ann@example.com' }
    expect(full.body).toMatchObject({ ownedByMe: true, permissions: [owner] })
    expect((await h.call('GET', `${F}/${full.body.id}?fields=*`)).body).toEqual(full.body)
    // Later writes in the same create (starred, properties) are in the stored file the response is made from.
    const starred = await h.call('POST', `${F}?fields=id,starred,properties`, {
      json: { name: 'starred', starred: true, properties: { team: 'atlas' } },
    })
    expect(starred.body).toEqual({ id: starred.body.id, starred: true, properties: { team: 'atlas' } })
    const quiet = await h.call('POST', F, { json: { name: 'quiet', starred: true, properties: { a: 'b' } } })
    expect(Object.keys(quiet.body)).toEqual(['kind', 'id', 'name', 'mimeType'])
    const stored = await h.call('GET', `${F}/${quiet.body.id}?fields=starred,properties,owners(emailAddress)`)
    const owners = [{ emailAddress: 'ann@example.com' }]
    expect(stored.body).toEqual({ starred: true, properties: { a: 'b' }, owners })
    const untitled = await h.call('POST', F, { json: {} })
    const octets = 'application/octet-stream'
    expect(untitled.body).toEqual({ kind: 'drive#file', id: untitled.body.id, name: 'Untitled', mimeType: octets })
  })
})
