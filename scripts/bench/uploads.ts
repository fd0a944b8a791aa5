// Server CPU and resident growth of one 30 MB upload of each kind (issue #15, docs/decisions/0416): `wsgym serve`
// spawned by ./serve.ts, each request sent over HTTP and measured from /proc/<pid>/stat (utime + stime, 10 ms
// ticks) and VmRSS around it; each upload is deleted before the next, so the world reuses the pages it freed (the
// steady regime of 0416). One warm-up round, then the median of ROUNDS. Linux only. `files.copy` of a 30 MB file
// (text and octet-stream, kept through the run) copies its bytes inside SQLite (docs/decisions/0432).
import { existsSync, readFileSync } from 'node:fs'
import type { BenchFigure } from './types.ts'
import { pause, spawnServe } from './serve.ts'

const ROUNDS = 3
const MB30 = 30 * 1024 * 1024

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** The process that serves: the launcher may re-execute Node once (bin/allocator-env.mjs). */
function serverPid(pid: number): number {
  for (;;) {
    const file = `/proc/${pid}/task/${pid}/children`
    const kids = existsSync(file) ? readFileSync(file, 'utf8').trim() : ''
    if (!kids) return pid
    pid = Number(kids.split(' ')[0])
  }
}

function usage(pid: number): { cpuMs: number; rssMiB: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1])
  return { cpuMs: (Number(fields[11]) + Number(fields[12])) * 10, rssMiB: kib / 1024 }
}

function related(meta: object, type: string, data: Buffer) {
  const head =
    `--b\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(meta)}\r\n` + `--b\r\nContent-Type: ${type}\r\n\r\n`
  return Buffer.concat([Buffer.from(head), data, Buffer.from('\r\n--b--\r\n')])
}

export async function run(): Promise<BenchFigure[]> {
  if (!existsSync('/proc/self/stat')) return []
  const served = spawnServe()
  const out = served.output
  try {
    const agent = await served.ready()
    const token =
      /Bearer (ya29\.\S+)/.exec(out())?.[1] ?? 'ya29.demo.85dc6caf89842c2e2522027ad7c29e0911d6c92fd6e2dcfc01a1efb5'
    const pid = serverPid(served.child.pid!)
    const auth = { authorization: `Bearer ${token}` }
    const send = async (method: string, path: string, type: string, body: Buffer | string) => {
      const res = await fetch(`${agent}${path}`, { method, headers: { ...auth, 'content-type': type }, body })
      const text = await res.text()
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`)
      return res.headers.get('location') ?? (JSON.parse(text) as { id: string }).id
    }
    const drop = (path: string) => fetch(`${agent}${path}`, { method: 'DELETE', headers: auth }).then((r) => r.text())
    const text = Buffer.alloc(MB30, 'lorem ipsum dolor sit amet\n')
    const bytes = Buffer.alloc(MB30)
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i & 255
    const attachment = Buffer.alloc(25 * 1024 * 1024, 'attachment bytes\n').toString('base64')
    const mail = [
      'From: me@example.com\r\nTo: me@example.com\r\nSubject: big\r\nMIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary=MM\r\n\r\n--MM\r\nContent-Type: text/plain\r\n\r\nhi\r\n--MM',
      'Content-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=a.bin',
      `Content-Transfer-Encoding: base64\r\n\r\n${attachment.replace(/.{76}/g, '$&\r\n')}\r\n--MM--\r\n`,
    ].join('\r\n')
    const target = await send('POST', '/upload/drive/v3/files?uploadType=media', 'text/plain', 'small')
    const textSource = await send('POST', '/upload/drive/v3/files?uploadType=media', 'text/plain', text)
    const binarySource = await send(
      'POST',
      '/upload/drive/v3/files?uploadType=media',
      'application/octet-stream',
      bytes,
    )
    const file = (id: string) => `/drive/v3/files/${id}`
    const message = (id: string) => `/gmail/v1/users/me/messages/${id}`
    // Each case: the request to measure, then (unmeasured) what undoes it.
    type Case = [string, () => Promise<() => Promise<unknown>>]
    /** A POST that creates something, undone by deleting what its answer names. */
    const created =
      (at: (id: string) => string, path: string, type: string, body: Buffer | string): Case[1] =>
      async () => {
        const id = await send('POST', path, type, body)
        return () => drop(at(id))
      }
    const multipart = 'multipart/related; boundary=b'
    const cases: Case[] = [
      [
        'Drive multipart text/plain',
        created(
          file,
          '/upload/drive/v3/files?uploadType=multipart',
          multipart,
          related({ name: 'a.txt', mimeType: 'text/plain' }, 'text/plain', text),
        ),
      ],
      [
        'Drive multipart octet-stream',
        created(
          file,
          '/upload/drive/v3/files?uploadType=multipart',
          multipart,
          related({ name: 'a.bin' }, 'application/octet-stream', bytes),
        ),
      ],
      [
        'Drive uploadType=media text/plain',
        created(file, '/upload/drive/v3/files?uploadType=media', 'text/plain', text),
      ],
      [
        'Drive resumable, one PUT (text/plain)',
        async () => {
          const at = await send(
            'POST',
            '/upload/drive/v3/files?uploadType=resumable',
            'application/json',
            '{"name":"r"}',
          )
          const id = await send('PUT', new URL(at).pathname + new URL(at).search, 'text/plain', text)
          return () => drop(file(id))
        },
      ],
      [
        'Drive files.update uploadType=media',
        async () => {
          await send('PATCH', `/upload/drive/v3/files/${target}?uploadType=media`, 'text/plain', text)
          return () => send('PATCH', `/upload/drive/v3/files/${target}?uploadType=media`, 'text/plain', 'small')
        },
      ],
      ['Drive files.copy text/plain', created(file, `/drive/v3/files/${textSource}/copy`, 'application/json', '{}')],
      [
        'Drive files.copy octet-stream',
        created(file, `/drive/v3/files/${binarySource}/copy`, 'application/json', '{}'),
      ],
      [
        'Gmail messages.insert, 25 MB attachment',
        created(message, '/upload/gmail/v1/users/me/messages?uploadType=media', 'message/rfc822', mail),
      ],
      [
        'Gmail messages.send, 25 MB attachment',
        created(message, '/upload/gmail/v1/users/me/messages/send?uploadType=media', 'message/rfc822', mail),
      ],
    ]
    const samples = new Map<string, { cpuMs: number[]; rssMiB: number[] }>()
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [name, call] of cases) {
        await pause(200)
        const before = usage(pid)
        const undo = await call()
        const after = usage(pid)
        await undo()
        if (round === 0) continue
        const s = samples.get(name) ?? { cpuMs: [], rssMiB: [] }
        s.cpuMs.push(after.cpuMs - before.cpuMs)
        s.rssMiB.push(after.rssMiB - before.rssMiB)
        samples.set(name, s)
      }
    }
    if (/through tsx/.test(out())) console.log('(wsgym ran its sources through tsx: `npm run build` to bench dist/)')
    const targets: Record<string, string> = {
      'Drive multipart text/plain': '≤ 600',
      'Drive multipart octet-stream': '≤ 400',
    }
    return [...samples].flatMap(([name, s]) => [
      { name: `30 MB upload, server CPU: ${name}`, value: median(s.cpuMs), unit: 'ms', target: targets[name] },
      { name: `30 MB upload, server RSS growth: ${name}`, value: median(s.rssMiB), unit: 'MiB' },
    ])
  } finally {
    await served.stop()
  }
}
