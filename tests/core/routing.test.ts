import { describe, expect, test } from 'vitest'
import { toPublicPath, toRoutingPath } from '../../envs/core/custom-verbs.ts'
import { applyFields, parseFields } from '../../envs/core/fields.ts'
import { matchSpecMethod } from '../../envs/core/spec-method.ts'
import { specMethods as docsMethods } from '../../envs/docs/api/methods.gen.ts'
import { specMethods as calendarMethods } from '../../envs/calendar/api/methods.gen.ts'
import { harness } from '../../envs/core/testing/harness.ts'
import { operationIdOf } from '../../server/app.ts'

describe('custom verbs', () => {
  test('a trailing :verb routes through /~verb and maps back for the document', () => {
    expect(toRoutingPath('/v1/documents/abc:batchUpdate')).toBe('/v1/documents/abc/~batchUpdate')
    expect(toPublicPath('/v1/documents/{documentId}/~batchUpdate')).toBe('/v1/documents/{documentId}:batchUpdate')
  })

  test('colon-bearing ids pass through unchanged', () => {
    expect(toRoutingPath('/calendar/v3/calendars/primary/acl/user:alice@example.com')).toBe(
      '/calendar/v3/calendars/primary/acl/user:alice@example.com',
    )
    expect(toRoutingPath('/calendar/v3/calendars/primary/acl/domain:example.com')).toBe(
      '/calendar/v3/calendars/primary/acl/domain:example.com',
    )
    expect(toRoutingPath('/calendar/v3/calendars/primary/acl/user%3Aalice%40x.com')).toBe(
      '/calendar/v3/calendars/primary/acl/user%3Aalice%40x.com',
    )
  })

  test('spec matching tells a verb route from a plain one', () => {
    expect(matchSpecMethod(docsMethods(), 'POST', '/v1/documents/abc:batchUpdate')).toBe('docs.documents.batchUpdate')
    expect(matchSpecMethod(docsMethods(), 'GET', '/v1/documents/abc')).toBe('docs.documents.get')
    expect(matchSpecMethod(docsMethods(), 'POST', '/v1/documents')).toBe('docs.documents.create')
    const acl = '/calendar/v3/calendars/primary/acl/user:alice@example.com'
    expect(matchSpecMethod(calendarMethods(), 'GET', acl)).toBe('calendar.acl.get')
  })

  test('upload paths resolve to the method they upload for', () => {
    expect(operationIdOf('POST', '/upload/gmail/v1/users/me/messages/send')?.operationId).toBe(
      'gmail.users.messages.send',
    )
    expect(operationIdOf('POST', '/resumable/upload/gmail/v1/users/me/messages/send')?.operationId).toBe(
      'gmail.users.messages.send',
    )
    expect(operationIdOf('PATCH', '/upload/drive/v3/files/abc')?.operationId).toBe('drive.files.update')
  })

  test('a path asked again answers as the first time, with an object of its own', () => {
    const path = '/gmail/v1/users/me/messages/kept1'
    const first = operationIdOf('GET', path)!
    first.operationId = 'changed by a caller'
    expect(operationIdOf('GET', path)).toEqual({ service: 'gmail', operationId: 'gmail.users.messages.get' })
    expect(operationIdOf('DELETE', path)?.operationId).toBe('gmail.users.messages.delete')
    expect(operationIdOf('GET', '/gmail/v1/nothing/here')).toBeUndefined()
    expect(operationIdOf('GET', '/gmail/v1/nothing/here')).toBeUndefined()
  })
})

describe('partial responses (fields=)', () => {
  test('selects nested keys, sub-selections and arrays', () => {
    const value = {
      kind: 'k',
      files: [{ id: '1', name: 'a', parents: ['p'], size: '3' }],
      nextPageToken: 't',
      owner: { me: true, email: 'x' },
    }
    expect(applyFields(value, parseFields('files(id,name),nextPageToken'))).toEqual({
      files: [{ id: '1', name: 'a' }],
      nextPageToken: 't',
    })
    expect(applyFields(value, parseFields('owner/email,kind'))).toEqual({ owner: { email: 'x' }, kind: 'k' })
    expect(applyFields(value, parseFields('*'))).toEqual(value)
  })

  test('a malformed selection is a 400', async () => {
    const h = harness()
    const res = await h.call('GET', '/gmail/v1/users/me/profile?fields=a(b')
    expect(res.status).toBe(400)
    expect(res.body.error.status).toBe('INVALID_ARGUMENT')
  })

  test('a name the response schema does not have is a 400 naming it, and changes nothing', async () => {
    const h = harness('demo')
    for (const [path, bad] of [
      ['/gmail/v1/users/me/profile?fields=emailAddress,bogus', 'bogus'],
      ['/gmail/v1/users/me/messages?fields=messages(id,subject)', 'subject'],
      ['/drive/v3/files?fields=files(id,owner)', 'owner'],
      ['/calendar/v3/calendars/primary/events?fields=items(start/zone)', 'zone'],
      // Names every JavaScript object inherits are no schema's fields either.
      ['/gmail/v1/users/me/profile?fields=constructor', 'constructor'],
      ['/drive/v3/files?fields=files(id,__proto__)', '__proto__'],
      ['/calendar/v3/users/me/calendarList?fields=items(toString)', 'toString'],
    ] as const) {
      const res = await h.call('GET', path)
      expect(res.status, path).toBe(400)
      expect(res.body.error.message, path).toBe(`Invalid field selection ${bad}`)
      expect(res.body.error.errors[0], path).toMatchObject({ reason: 'invalidParameter', location: 'fields' })
    }
    const before = (await h.call('GET', '/drive/v3/files?fields=files(id)&pageSize=1000')).body.files.length
    const refused = await h.call('POST', '/drive/v3/files?fields=id,bogus', { json: { name: 'never created' } })
    expect(refused.status).toBe(400)
    expect((await h.call('GET', '/drive/v3/files?fields=files(id)&pageSize=1000')).body.files.length).toBe(before)
  })

  test('schema names, nested paths, map keys and wildcards are accepted', async () => {
    const h = harness('demo')
    const files = await h.call(
      'GET',
      '/drive/v3/files?fields=nextPageToken,files(id,name,owners/emailAddress,appProperties/anyKey,capabilities/canEdit)',
    )
    expect(files.status).toBe(200)
    expect(Object.keys(files.body.files[0]).sort()).toEqual(expect.arrayContaining(['id', 'name']))
    expect(
      (
        await h.call(
          'GET',
          '/calendar/v3/calendars/primary/events?fields=items(id,start/dateTime,attendees(email,responseStatus)),nextSyncToken',
        )
      ).status,
    ).toBe(200)
    expect((await h.call('GET', '/gmail/v1/users/me/messages?fields=*')).status).toBe(200)
    expect(
      (await h.call('GET', '/drive/v3/about?fields=storageQuota/limit,user(displayName,emailAddress)')).status,
    ).toBe(200)
  })

  test('prettyPrint=false gives compact JSON and the default is indented', async () => {
    const h = harness()
    expect((await h.call('GET', '/gmail/v1/users/me/profile?prettyPrint=false')).text).not.toContain('\n')
    expect((await h.call('GET', '/gmail/v1/users/me/profile')).text).toContain('\n  "emailAddress"')
  })
})

describe('unknown and unimplemented paths', () => {
  test("a path under no service answers 404 in Google's envelope", async () => {
    const h = harness()
    const res = await h.call('GET', '/nothing/here')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe(404)
  })

  test('an unknown Slack method answers unknown_method', async () => {
    const h = harness()
    const res = await h.call('POST', '/api/no.such.method', { form: {} })
    expect(res.body).toMatchObject({ ok: false, error: 'unknown_method' })
  })

  test('a known but unimplemented Gmail method answers 501 naming the method', async () => {
    const h = harness()
    const res = await h.call('POST', '/gmail/v1/users/me/settings/cse/keypairs/k1:enable', { json: {} })
    expect(res.status).toBe(501)
    expect(res.body.error.message).toContain('gmail.users.settings.cse.keypairs.enable')
  })

  test('an oversized body is refused with 413 before it reaches a world', async () => {
    const h = harness()
    const res = await h.call('POST', '/gmail/v1/users/me/labels', { json: { name: 'x'.repeat(9 * 1024 * 1024) } })
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe(413)
  })

  test('malformed JSON to Slack answers invalid_json and never 500', async () => {
    const h = harness()
    const res = await h.call('POST', '/api/auth.test', {
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: false, error: 'invalid_json' })
  })

  test('the agent port publishes one OpenAPI 3.1 document with public colon paths', async () => {
    const h = harness()
    const res = await h.call('GET', '/openapi.json', { token: null })
    expect(res.body.openapi).toBe('3.1.0')
    expect(Object.keys(res.body.paths)).toContain('/gmail/v1/users/{userId}/profile')
    expect(Object.keys(res.body.paths).some((p) => p.includes('/~'))).toBe(false)
  })

  test('the agent port has no control routes', async () => {
    const h = harness()
    for (const path of ['/worlds', '/worlds/test/state', '/gym/tasks', '/reset']) {
      const res = await h.call('GET', path, { token: null })
      expect(res.status).toBe(404)
    }
  })
})
