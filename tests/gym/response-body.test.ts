import { afterAll, describe, expect, it } from 'vitest'
import { createGym } from '../../gym/index.ts'
import { TaskSpec } from '../../gym/task.ts'
import { isTextual } from '../../gym/response-body.ts'
import { driveExportMarkdown } from '../../tasks-lite/families/docs/drive-export-markdown.ts'

// Bytes that UTF-8 would mangle (every high byte, a NUL): the agent must get them back exactly.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28])
const spec = driveExportMarkdown.generate(1)
const seed = spec.seed as { drive: { files: Record<string, unknown>[] } }
seed.drive.files.push({ name: 'logo.png', mimeType: 'image/png', owner: spec.actor, base64: PNG.toString('base64') })
const task = TaskSpec.parse(spec)
const gym = createGym({ tasks: [task] })
afterAll(() => gym.worlds.close())

const get = async (ep: ReturnType<typeof gym.reset>, path: string, query: Record<string, string>) =>
  JSON.parse((await ep.step({ tool: 'http_request', arguments: { method: 'GET', path, query } })).observation)

describe('http_request response bodies', () => {
  it('gives binary bodies as type, size and base64, and text bodies as text', async () => {
    const ep = gym.reset(task.id)
    const list = await get(ep, '/drive/v3/files', { q: "name = 'logo.png' or name contains 'runbook'" })
    const id = (name: string) => (list.body.files as { id: string; name: string }[]).find((f) => f.name === name)!.id
    const png = await get(ep, `/drive/v3/files/${id('logo.png')}`, { alt: 'media' })
    expect(png).toEqual({
      status: 200,
      body: { contentType: 'image/png', size: PNG.length, base64: PNG.toString('base64') },
    })
    const doc = id(spec.oracle.params.doc as string)
    const pdf = await get(ep, `/drive/v3/files/${doc}/export`, { mimeType: 'application/pdf' })
    expect(pdf.body.contentType).toBe('application/pdf')
    expect(Buffer.from(pdf.body.base64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(Buffer.from(pdf.body.base64, 'base64').length).toBe(pdf.body.size)
    const md = await get(ep, `/drive/v3/files/${doc}/export`, { mimeType: 'text/markdown' })
    expect(md.body).toMatch(/^# .*incident runbook\n/)
    ep.close()
  })

  it('treats text, JSON, XML and untyped bodies as text, and everything else as bytes', () => {
    for (const t of [
      'text/plain; charset=utf-8',
      'application/json',
      'application/ld+json',
      'application/atom+xml',
      'application/rtf',
      null,
      '',
    ])
      expect(isTextual(t), String(t)).toBe(true)
    for (const t of [
      'application/pdf',
      'image/png',
      'application/octet-stream',
      'application/zip',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ])
      expect(isTextual(t), t).toBe(false)
  })
})
