import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { WorldManager } from '../../server/worlds.ts'
import { adoptBakedTemplates, bakeTemplates } from '../../server/templates.ts'

const root = join(import.meta.dirname, '..', '..')

/** Starts `wsgym serve` (dist/ when built, else the sources) and resolves with its agent URL and alice's token. */
function serve() {
  const args = [join(root, 'bin', 'wsgym.mjs'), 'serve', '--port', '0', '--control-port', '0']
  const child = spawn(process.execPath, args, { cwd: root })
  let out = ''
  const ready = new Promise<{ agent: string; token: string }>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const agent = /agent API\s+(http:\/\/\S+)/.exec(out)?.[1]
      const token = /alice@\S+\s+google (\S+)/.exec(out)?.[1]
      if (agent && token) resolve({ agent, token })
    })
    child.on('exit', (code) => reject(new Error(`wsgym exited with ${code}: ${out}`)))
  })
  return { child, ready }
}

describe('npm run build', () => {
  // V8 stores a script's source two bytes per character once one character is outside Latin-1 (docs/decisions/0270).
  test.skipIf(!existsSync(join(root, 'dist', 'server')))('writes bundles whose source is plain ASCII', () => {
    const dir = join(root, 'dist', 'server')
    const files = readdirSync(dir).filter((n) => n.endsWith('.js'))
    expect(files.length).toBeGreaterThan(0)
    for (const name of files) {
      const wide = readFileSync(join(dir, name), 'utf8').match(/[^\x00-\x7f]/)
      expect({ name, wide: wide?.[0] }).toEqual({ name, wide: undefined })
    }
  })

  /** The scripts `wsgym serve` imports at start, by name: static imports from cli.js (`import(…)` waits for use). */
  function startScripts(): Map<string, string> {
    const dir = join(root, 'dist', 'server')
    const texts = new Map<string, string>()
    const visit = (name: string) => {
      if (texts.has(name)) return
      const text = readFileSync(join(dir, name), 'utf8')
      texts.set(name, text)
      // The bundle is minified: `from"./chunk-….js"`.
      for (const m of text.matchAll(/(?:from|import)\s*"\.\/([\w-]+\.js)"/g)) visit(m[1]!)
    }
    visit('cli.js')
    return texts
  }

  // The largest script a start parses sets the peak of V8's parser zone, which glibc keeps (docs/decisions/0314).
  test.skipIf(!existsSync(join(root, 'dist', 'server')))('splits what a start imports into chunks of < 250 KB', () => {
    const scripts = startScripts()
    expect(scripts.size).toBeGreaterThan(10)
    const large = [...scripts].filter(([, text]) => text.length >= 250_000).map(([name]) => name)
    expect(large).toEqual([])
  })

  // V8 keeps a loaded script's source for the life of the process; the tables are read from dist/<svc>/api/.
  test.skipIf(!existsSync(join(root, 'dist', 'server')))('keeps the generated method tables out of the start', () => {
    const holding = [...startScripts()].filter(([, text]) => /httpMethod:"/.test(text)).map(([name]) => name)
    expect(holding).toEqual([])
    expect(existsSync(join(root, 'dist', 'gmail', 'api', 'methods.gen.json'))).toBe(true)
  })
})

describe('wsgym serve', () => {
  test('answers the agent API, exports a Doc as PDF and stops on SIGTERM', async () => {
    const { child, ready } = serve()
    try {
      const { agent, token } = await ready
      const headers = { authorization: `Bearer ${token}` }
      const get = async (path: string) => (await fetch(`${agent}${path}`, { headers })).json() as Promise<any>
      const profile = await get('/gmail/v1/users/me/profile')
      expect(profile.emailAddress).toMatch(/^alice@/)
      const q = encodeURIComponent("mimeType='application/vnd.google-apps.document'")
      const docs = await get(`/drive/v3/files?q=${q}`)
      const exportPath = `/drive/v3/files/${docs.files[0].id}/export?mimeType=application/pdf`
      const pdf = await fetch(`${agent}${exportPath}`, { headers })
      expect(pdf.status).toBe(200)
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-')
    } finally {
      const exited = new Promise((r) => child.on('exit', r))
      child.kill('SIGTERM')
      await exited
    }
  })
})

describe('baked templates', () => {
  test('a world made from a baked template is byte-identical to one seeded in process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsgym-baked-'))
    expect(bakeTemplates(dir).length).toBeGreaterThan(0)
    const baked = new WorldManager()
    expect(adoptBakedTemplates(baked, dir)).toBeGreaterThan(0)
    const fresh = new WorldManager()
    const a = baked.create({ id: 'same', seed: 'demo', seedValue: 1 })
    const b = fresh.create({ id: 'same', seed: 'demo', seedValue: 1 })
    expect(a.world.snapshot().bytes.equals(b.world.snapshot().bytes)).toBe(true)
    baked.close()
    fresh.close()
  })
})
