import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { google } from 'googleapis'
import { startSdkServer, type SdkServer } from './server.ts'

// Google's API Discovery Service at this server (server/api-discovery.ts): public, with every document's rootUrl
// pointing back at the origin asked, so discovery-driven clients need only the discovery URL changed.
const specs = join(import.meta.dirname, '..', '..', 'specs')
const vendored = (file: string) => JSON.parse(readFileSync(join(specs, `${file}.discovery.json`), 'utf8'))

describe('the Discovery Service', () => {
  let server: SdkServer
  let origin: string
  beforeAll(async () => {
    server = await startSdkServer('demo')
    origin = server.url.replace(/\/$/, '')
  })
  afterAll(() => server?.close())

  test('serves each vendored document, unchanged but for rootUrl, baseUrl and mtlsRootUrl, with no credential', async () => {
    for (const [api, version, file] of [
      ['gmail', 'v1', 'gmail.v1'],
      ['calendar', 'v3', 'calendar.v3'],
      ['drive', 'v3', 'drive.v3'],
      ['docs', 'v1', 'docs.v1'],
      ['admin', 'directory_v1', 'admin.directory_v1'],
      ['admin', 'datatransfer_v1', 'admin.datatransfer_v1'],
    ]) {
      const res = await fetch(`${origin}/discovery/v1/apis/${api}/${version}/rest`)
      expect(res.status, file).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      const doc = (await res.json()) as any
      const want = vendored(file!)
      expect(doc.rootUrl).toBe(`${origin}/`)
      expect(doc.baseUrl).toBe(`${origin}/${want.servicePath}`)
      if ('mtlsRootUrl' in want) expect(doc.mtlsRootUrl).toBe(`${origin}/`)
      else expect(doc).not.toHaveProperty('mtlsRootUrl')
      const { rootUrl: _r, baseUrl: _b, mtlsRootUrl: _m, ...rest } = doc
      const { rootUrl: _r2, baseUrl: _b2, mtlsRootUrl: _m2, ...restWant } = want
      expect(rest).toEqual(restWant)
    }
  })

  test('the directory lists every API served, filtered by name; preferred must be a boolean', async () => {
    const all = (await (await fetch(`${origin}/discovery/v1/apis`)).json()) as any
    expect(all.kind).toBe('discovery#directoryList')
    expect(all.items.map((i: { id: string }) => i.id)).toEqual([
      'gmail:v1',
      'calendar:v3',
      'drive:v3',
      'docs:v1',
      'admin:directory_v1',
      'admin:datatransfer_v1',
    ])
    for (const item of all.items) {
      const doc = (await (await fetch(item.discoveryRestUrl)).json()) as any
      expect(doc.id).toBe(item.id)
    }
    const admin = (await (await fetch(`${origin}/discovery/v1/apis?name=admin&preferred=true`)).json()) as any
    expect(admin.items.map((i: { version: string }) => i.version)).toEqual(['directory_v1', 'datatransfer_v1'])
    const none = (await (await fetch(`${origin}/discovery/v1/apis?name=constructor`)).json()) as any
    expect(none).toEqual({ kind: 'discovery#directoryList', discoveryVersion: 'v1' })
    const bad = await fetch(`${origin}/discovery/v1/apis?preferred=yes`)
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as any).error.status).toBe('INVALID_ARGUMENT')
  })

  test('unknown APIs and versions are 404 in Google’s envelope', async () => {
    for (const path of ['gmail/v2', 'constructor/v1', '__proto__/v1', 'sheets/v4', 'admin/v1']) {
      const res = await fetch(`${origin}/discovery/v1/apis/${path}/rest`)
      expect(res.status, path).toBe(404)
      expect(await res.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } })
    }
  })

  test('the per-host form `/$discovery/rest?version=` takes the API from the host name', async () => {
    const { request } = await import('node:http')
    const get = (host: string, path: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const url = new URL(origin)
        const req = request({ host: url.hostname, port: url.port, path, headers: { host } }, (res) => {
          let text = ''
          res.on('data', (d) => (text += d))
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
        })
        req.on('error', reject)
        req.end()
      })
    const drive = await get('drive.googleapis.com', '/$discovery/rest?version=v3')
    expect(drive.status).toBe(200)
    expect(drive.body.id).toBe('drive:v3')
    // Reached under Google's own host name (an intercepting proxy): Google's URLs are kept, as Google serves them.
    expect(drive.body.rootUrl).toBe(vendored('drive.v3').rootUrl)
    const viaWww = await get('www.googleapis.com', '/discovery/v1/apis/gmail/v1/rest')
    expect(viaWww.body).toEqual(vendored('gmail.v1'))
    const other = await get('mock.internal:8080', '/discovery/v1/apis/gmail/v1/rest')
    expect(other.body.rootUrl).toBe('http://mock.internal:8080/')
    expect((await get('drive.googleapis.com', '/$discovery/rest?version=v9')).status).toBe(404)
    expect((await get('127.0.0.1', '/$discovery/rest?version=v1')).status).toBe(404)
    expect((await get('gmail.googleapis.com', '/$discovery/rest')).status).toBe(400)
  })

  test("googleapis' discoverAPI builds a working client from this server's document", async () => {
    const gmail = (await google.discoverAPI(`${origin}/discovery/v1/apis/gmail/v1/rest`)) as any
    const res = await gmail.users.getProfile({ userId: 'me', auth: server.auth() })
    expect(res.data.emailAddress).toBe(server.tokens[0]!.email)
  })
})

// google-api-python-client 1.7 (Debian) finds the server through `discoveryServiceUrl` alone.
const PYTHON = process.env.WSGYM_PYTHON ?? '/usr/bin/python3'
const probe = spawnSync(PYTHON, ['-c', 'import googleapiclient, google_auth_httplib2'], { encoding: 'utf8' })
const missing = probe.status === 0 ? '' : `${PYTHON} cannot import googleapiclient (apt-get install python3-googleapi)`

describe.skipIf(missing !== '')(`Python build() from this server${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let server: SdkServer
  beforeAll(async () => {
    server = await startSdkServer('demo')
  })
  afterAll(() => server?.close())

  test('build(api, version, discoveryServiceUrl=…) reaches Gmail, Calendar, Drive, Docs and Directory', async () => {
    const script = [
      'import json, sys',
      'from google.oauth2.credentials import Credentials',
      'from google_auth_httplib2 import AuthorizedHttp',
      'from googleapiclient.discovery import build',
      'from googleapiclient.http import build_http',
      'url, token = sys.argv[1], sys.argv[2]',
      'http = AuthorizedHttp(Credentials(token), http=build_http())',
      "svc = lambda a, v: build(a, v, http=http, cache_discovery=False, discoveryServiceUrl=url + 'discovery/v1/apis/{api}/{apiVersion}/rest')",
      'out = {}',
      "out['gmail'] = svc('gmail', 'v1').users().getProfile(userId='me').execute()['emailAddress']",
      "out['calendar'] = svc('calendar', 'v3').calendarList().get(calendarId='primary').execute()['id']",
      "out['drive'] = len(svc('drive', 'v3').files().list(pageSize=5).execute()['files'])",
      "out['docs'] = svc('docs', 'v1').documents().create(body={'title': 'From discovery'}).execute()['title']",
      "out['directory'] = len(svc('admin', 'directory_v1').users().list(customer='my_customer').execute()['users'])",
      'print(json.dumps(out))',
    ].join('\n')
    const me = server.tokens[0]!
    const { stdout } = await promisify(execFile)(PYTHON, ['-c', script, server.url, me.googleToken!], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    const out = JSON.parse(stdout)
    expect(out.gmail).toBe(me.email)
    expect(out.calendar).toBe(me.email)
    expect(out.drive).toBe(5)
    expect(out.docs).toBe('From discovery')
    expect(out.directory).toBeGreaterThan(1)
  }, 90_000)
})
