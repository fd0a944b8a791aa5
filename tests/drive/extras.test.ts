import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { validateAgainst } from '../support/discovery.ts'
import { driveSeed, q } from './fixtures.ts'

const F = '/drive/v3/files'
type H = ReturnType<typeof harness>
const fileId = async (h: H, name: string) =>
  (await h.call('GET', `${F}?q=${q(`name = '${name}'`)}`)).body.files[0].id as string

describe('drive.files.watch', () => {
  test('opens a channel on a file that drive.channels.stop closes', async () => {
    const h = harness(driveSeed)
    const id = await fileId(h, 'Atlas plan.txt')
    const res = await h.call('POST', `${F}/${id}/watch`, {
      json: { id: 'ch-1', type: 'web_hook', address: 'https://hooks.example.com/drive', token: 't=1' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      kind: 'api#channel',
      id: 'ch-1',
      resourceUri: `https://www.googleapis.com/drive/v3/files/${id}?alt=json`,
      token: 't=1',
    })
    expect(res.body.resourceId).toMatch(/^[\w-]{27}$/)
    expect(Number(res.body.expiration) - Date.parse('2026-03-10T15:00:00Z')).toBeGreaterThanOrEqual(3_600_000)
    expect(Number(res.body.expiration) - Date.parse('2026-03-10T15:00:00Z')).toBeLessThan(3_700_000)
    expect(validateAgainst('drive', 'Channel', res.body)).toEqual([])
    expect(
      (
        await h.call('POST', `${F}/${id}/watch`, {
          json: { id: 'x', type: 'web_hook', address: 'http://insecure.example.com' },
        })
      ).status,
    ).toBe(400)
    expect(
      (
        await h.call('POST', `${F}/${id}/watch`, {
          json: { id: 'x', type: 'carrier_pigeon', address: 'https://a.example.com' },
        })
      ).status,
    ).toBe(400)
    expect(
      (
        await h.call('POST', `${F}/${id}/watch`, {
          json: { id: 'x', type: 'web_hook', address: 'https://a.example.com' },
          token: h.google('cy'),
        })
      ).status,
    ).toBe(404)
    expect(
      (
        await h.call('POST', '/drive/v3/channels/stop', {
          json: { id: 'ch-1', resourceId: res.body.resourceId },
          token: h.google('ben'),
        })
      ).status,
    ).toBe(404)
    expect(
      (await h.call('POST', '/drive/v3/channels/stop', { json: { id: 'ch-1', resourceId: res.body.resourceId } }))
        .status,
    ).toBe(204)
    expect(
      (await h.call('POST', '/drive/v3/channels/stop', { json: { id: 'ch-1', resourceId: res.body.resourceId } }))
        .status,
    ).toBe(404)
  })
})

describe('drive.changes.watch', () => {
  test('watches the change feed from a page token', async () => {
    const h = harness(driveSeed)
    const start = (await h.call('GET', '/drive/v3/changes/startPageToken')).body.startPageToken
    const res = await h.call('POST', `/drive/v3/changes/watch?pageToken=${start}`, {
      json: {
        id: 'feed',
        type: 'web_hook',
        address: 'https://hooks.example.com/c',
        expiration: String(Date.parse('2026-03-10T15:30:00Z')),
      },
    })
    expect(res.body).toMatchObject({
      kind: 'api#channel',
      id: 'feed',
      resourceUri: `https://www.googleapis.com/drive/v3/changes?alt=json&pageToken=${start}`,
      expiration: String(Date.parse('2026-03-10T15:30:00Z')),
    })
    expect(
      (
        await h.call('POST', '/drive/v3/changes/watch', {
          json: { id: 'feed2', type: 'web_hook', address: 'https://hooks.example.com/c' },
        })
      ).status,
    ).toBe(400)
    const state = await h.call('POST', '/drive/v3/channels/stop', {
      json: { id: 'feed', resourceId: res.body.resourceId },
    })
    expect(state.status).toBe(204)
  })
})

describe('drive.channels.stop', () => {
  test('needs the channel id and resource id', async () => {
    const h = harness(driveSeed)
    expect((await h.call('POST', '/drive/v3/channels/stop', { json: { id: 'x' } })).status).toBe(400)
  })
})

describe('drive.apps.list', () => {
  test('lists the installed apps, filtered by extension or MIME type; drive.apps.get reads one', async () => {
    const h = harness(driveSeed)
    const all = (await h.call('GET', '/drive/v3/apps')).body
    expect(all.kind).toBe('drive#appList')
    expect(all.items.map((a: { name: string }) => a.name)).toEqual([
      'Google Docs',
      'Google Sheets',
      'Google Slides',
      'Google Drive for desktop',
    ])
    expect(validateAgainst('drive', 'AppList', all)).toEqual([])
    expect(
      (await h.call('GET', '/drive/v3/apps?appFilterExtensions=csv')).body.items.map((a: { name: string }) => a.name),
    ).toEqual(['Google Sheets'])
    expect(
      (await h.call('GET', `/drive/v3/apps?appFilterMimeTypes=${q('application/vnd.google-apps.document')}`)).body
        .items,
    ).toHaveLength(1)
    const docs = (await h.call('GET', `/drive/v3/apps/${all.items[0].id}`)).body
    expect(docs).toMatchObject({ kind: 'drive#app', name: 'Google Docs', supportsCreate: true, installed: true })
    expect((await h.call('GET', '/drive/v3/apps/123')).status).toBe(404)
  })
})

describe('drive.files.modifyLabels', () => {
  test('applies, updates and removes labels atomically; drive.files.listLabels and includeLabels read them', async () => {
    const h = harness(driveSeed)
    const id = await fileId(h, 'Atlas plan.txt')
    const res = await h.call('POST', `${F}/${id}/modifyLabels`, {
      json: {
        labelModifications: [
          {
            labelId: 'projectLabel',
            fieldModifications: [
              { fieldId: 'status', setSelectionValues: ['active'] },
              { fieldId: 'due', setDateValues: ['2026-04-01'] },
              { fieldId: 'lead', setUserValues: ['ben@example.com'] },
            ],
          },
        ],
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.kind).toBe('drive#modifyLabelsResponse')
    expect(res.body.modifiedLabels[0]).toMatchObject({
      kind: 'drive#label',
      id: 'projectLabel',
      fields: {
        status: { kind: 'drive#labelField', valueType: 'selection', selection: ['active'] },
        due: { dateString: ['2026-04-01'] },
        lead: { valueType: 'user', user: [{ emailAddress: 'ben@example.com', displayName: 'Ben Ode' }] },
      },
    })
    expect(validateAgainst('drive', 'ModifyLabelsResponse', res.body)).toEqual([])
    const bad = await h.call('POST', `${F}/${id}/modifyLabels`, {
      json: {
        labelModifications: [
          { labelId: 'other', fieldModifications: [] },
          { labelId: 'projectLabel', fieldModifications: [{ fieldId: 'n', setIntegerValues: ['x'] }] },
        ],
      },
    })
    expect(bad.status).toBe(400)
    const listed = (await h.call('GET', `${F}/${id}/listLabels`)).body
    expect(listed.kind).toBe('drive#labelList')
    expect(listed.labels.map((l: { id: string }) => l.id)).toEqual(['projectLabel'])
    await h.call('POST', `${F}/${id}/modifyLabels`, {
      json: {
        labelModifications: [{ labelId: 'projectLabel', fieldModifications: [{ fieldId: 'due', unsetValues: true }] }],
      },
    })
    const info = (await h.call('GET', `${F}/${id}?includeLabels=projectLabel&fields=labelInfo`)).body
    expect(Object.keys(info.labelInfo.labels[0].fields).sort()).toEqual(['lead', 'status'])
    expect((await h.call('GET', `${F}/${id}/modifyLabels`)).status).not.toBe(200)
    expect(
      (
        await h.call('POST', `${F}/${id}/modifyLabels`, {
          json: { labelModifications: [{ labelId: 'projectLabel', removeLabel: true }] },
          token: h.google('ben'),
        })
      ).status,
    ).toBe(200)
    expect((await h.call('GET', `${F}/${id}/listLabels`)).body.labels).toEqual([])
    const handbook = await fileId(h, 'Handbook.txt')
    expect(
      (await h.call('POST', `${F}/${handbook}/modifyLabels`, { json: { labelModifications: [{ labelId: 'x' }] } }))
        .status,
    ).toBe(403)
  })
})

describe('drive.files.download', () => {
  test('returns a finished operation whose downloadUri serves the bytes; drive.operations.get reads it back', async () => {
    const h = harness(driveSeed)
    const id = await fileId(h, 'Atlas plan.txt')
    const op = (await h.call('POST', `${F}/${id}/download`)).body
    expect(op).toMatchObject({
      done: true,
      response: { downloadUri: expect.stringContaining(`/drive/v3/files/${id}?alt=media`) },
    })
    expect(validateAgainst('drive', 'Operation', op)).toEqual([])
    const path = new URL(op.response.downloadUri).pathname + new URL(op.response.downloadUri).search
    expect((await h.call('GET', path)).text).toBe('Plan for Atlas.')
    expect((await h.call('GET', `/drive/v3/operations/${op.name}`)).body).toEqual(op)
    expect((await h.call('GET', `/drive/v3/operations/${op.name}`, { token: h.google('ben') })).status).toBe(404)
    const doc = (await h.call('POST', F, { json: { name: 'Memo', mimeType: 'application/vnd.google-apps.document' } }))
      .body.id
    expect((await h.call('POST', `${F}/${doc}/download`)).status).toBe(400)
    const exp = (await h.call('POST', `${F}/${doc}/download?mimeType=text/plain`)).body
    expect(exp.response.downloadUri).toContain(`/drive/v3/files/${doc}/export?mimeType=text%2Fplain`)
  })
})

describe('drive.files.generateCseToken', () => {
  test('answers 403: client-side encryption is not enabled for world users', async () => {
    const h = harness(driveSeed)
    const res = await h.call('GET', `${F}/generateCseToken`)
    expect(res.status).toBe(403)
    expect(res.body.error.message).toBe('Client-side encryption is not enabled for this user.')
  })
})
