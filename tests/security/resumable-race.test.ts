import { afterAll, beforeAll, expect, test } from 'vitest'
import { Document, Packer, Paragraph } from 'docx'
import { startServer, type Running } from '../../server/main.ts'

// Decision 0392: a resumable session completes once. Two final PUTs sent in parallel over real sockets both found the
// session unfinished and both created a file whenever completing it waited (a .docx converted to a Google Doc is
// read asynchronously); now the second answers what a finished session answers (200 and the same file), and only
// one file exists.
let server: Running
let token = ''
beforeAll(async () => {
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    controlPort: 0,
    adminToken: 'resumable-race-test',
    worlds: [{ id: 'race', seed: 'empty', seedValue: 1 }],
  })
  token = server.worlds.credentials('race')[0]!.googleToken!
}, 120_000)
afterAll(() => server?.close())

const auth = () => ({ authorization: `Bearer ${token}` })

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

async function session(path: string, meta: unknown, type = 'text/plain'): Promise<string> {
  const res = await fetch(`${server.agentUrl}${path}?uploadType=resumable`, {
    method: path.endsWith('/files') ? 'POST' : 'PATCH',
    headers: { ...auth(), 'content-type': 'application/json', 'x-upload-content-type': type },
    body: JSON.stringify(meta),
  })
  expect(res.status).toBe(200)
  return res.headers.get('location')!
}

async function filesNamed(name: string): Promise<string[]> {
  const q = encodeURIComponent(`name = '${name}'`)
  const res = await fetch(`${server.agentUrl}/drive/v3/files?q=${q}`, { headers: auth() })
  return ((await res.json()) as { files: { id: string }[] }).files.map((f) => f.id)
}

const TEXT = Buffer.alloc(1 << 16, 'x')
const put = (url: string, body: Buffer = TEXT) =>
  fetch(url, {
    method: 'PUT',
    headers: { ...auth(), 'content-range': `bytes 0-${body.length - 1}/${body.length}` },
    body,
  })

test('two parallel final PUTs to one resumable session create one file', async () => {
  const docx = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Imported')] }] }))
  for (let round = 0; round < 4; round++) {
    const name = `race-${round}`
    const doc = round % 2 === 0
    const meta = doc ? { name, mimeType: 'application/vnd.google-apps.document' } : { name }
    const url = await session('/upload/drive/v3/files', meta, doc ? DOCX : 'text/plain')
    const [a, b] = await Promise.all([put(url, doc ? docx : TEXT), put(url, doc ? docx : TEXT)])
    expect([a.status, b.status]).toEqual([200, 200])
    const [fa, fb] = (await Promise.all([a.json(), b.json()])) as { id: string }[]
    expect(fb!.id).toBe(fa!.id)
    expect(await filesNamed(name)).toEqual([fa!.id])
  }
})

test('two parallel final PUTs to one update session add one revision', async () => {
  const url = await session('/upload/drive/v3/files', { name: 'rev.txt' })
  const first = (await (await put(url)).json()) as { id: string }
  const update = await session(`/upload/drive/v3/files/${first.id}`, {})
  const [a, b] = await Promise.all([put(update), put(update)])
  expect([a.status, b.status]).toEqual([200, 200])
  const revs = await fetch(`${server.agentUrl}/drive/v3/files/${first.id}/revisions`, { headers: auth() })
  expect(((await revs.json()) as { revisions: unknown[] }).revisions).toHaveLength(2)
})
