import { describe, expect, test } from 'vitest'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'

const root = join(import.meta.dirname, '..')

function sources(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) sources(p, out)
    else if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name)) out.push(p)
  }
  return out
}

function allFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) allFiles(p, out)
    else out.push(p)
  }
  return out
}

/** Relative imports of a file, resolved to repo-relative paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [
    ...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1] ?? m[2]!)
  return specs.map((s) => relative(root, resolve(dirname(file), s)))
}

const allowedCross: Record<string, string[]> = {
  // Cross-service bridges documented in AGENTS.md.
  calendar: ['envs/gmail/deliver'],
  drive: ['envs/gmail/deliver', 'envs/docs/render', 'envs/docs/bridge'],
  docs: ['envs/drive/docs-bridge'],
  identity: ['envs/drive/transfer', 'envs/calendar/transfer', 'envs/gmail/rename', 'envs/calendar/service-accounts'],
}

describe('architecture', () => {
  test('envs/core depends on nothing else in the repo', () => {
    const bad = sources(join(root, 'envs', 'core'))
      .filter((f) => !f.includes(`${join('core', 'testing')}`))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => !i.startsWith('envs/core'))
          .map((i) => `${relative(root, f)} → ${i}`),
      )
    expect(bad).toEqual([])
  })

  test('services import only core and documented bridges', () => {
    const bad: string[] = []
    for (const svc of ['gmail', 'calendar', 'drive', 'docs', 'slack', 'identity']) {
      for (const f of sources(join(root, 'envs', svc))) {
        for (const i of importsOf(f)) {
          if (i.startsWith('envs/core') || i.startsWith(`envs/${svc}`)) continue
          if ((allowedCross[svc] ?? []).some((b) => i.startsWith(b))) continue
          bad.push(`${relative(root, f)} → ${i}`)
        }
      }
    }
    expect(bad).toEqual([])
  })

  test('oracles never touch the database, the server or the gym', () => {
    const bad = sources(join(root, 'oracles')).flatMap((f) =>
      importsOf(f)
        .filter(
          (i) =>
            i.startsWith('server/') ||
            i.startsWith('gym/') ||
            // calendar/time: the pure recurrence expansion, so an oracle reads a series' meetings as the mock holds
            // them (docs/decisions/0472).
            (i.startsWith('envs/') &&
              !/^envs\/(core\/(diff|service|arrays|bounded-map)|[a-z]+\/state|calendar\/time\/)/.test(i)),
        )
        .map((i) => `${relative(root, f)} → ${i}`),
    )
    expect(bad).toEqual([])
  })

  test('the trainer talks to the gym over HTTP only (and shares only the pure program grammar)', () => {
    const bad = sources(join(root, 'trainer')).flatMap((f) =>
      importsOf(f)
        .filter((i) => /^(envs|server|gym|oracles)\//.test(i) && !/^gym\/program-grammar(\.ts)?$/.test(i))
        .map((i) => `${relative(root, f)} → ${i}`),
    )
    expect(bad).toEqual([])
  })

  test('process.env is read only in server/env.ts', () => {
    const dirs = ['envs', 'server', 'gym', 'oracles']
    const bad = dirs
      .flatMap((d) => sources(join(root, d)))
      .filter((f) => !f.endsWith(join('server', 'env.ts')) && readFileSync(f, 'utf8').includes('process.env'))
      .map((f) => relative(root, f))
    expect(bad).toEqual([])
  })

  test('nothing reads the reference checkout beside the repo (specs are vendored in specs/)', () => {
    const files = ['envs', 'server', 'gym', 'oracles', 'trainer', 'seeds', 'scripts', 'tests', 'tasks-lite', 'bin']
      .flatMap((d) => allFiles(join(root, d)))
      .filter((f) => /\.(ts|mjs|js)$/.test(f) && f !== import.meta.filename)
    const outside = new RegExp(`\\.\\./${'shared'}/|'\\.\\.',\\s*'${'shared'}'|'${'shared'}',\\s*'(specs|parity)'`)
    const bad = files.filter((f) => outside.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f))
    expect(bad).toEqual([])
  })

  test('services never read wall-clock time or unseeded randomness', () => {
    const bad = sources(join(root, 'envs'))
      .filter((f) => !f.includes(join('core', 'testing')))
      .filter((f) => /Date\.now\(\)|Math\.random\(\)|randomUUID\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
    expect(bad).toEqual([])
  })

  test('service SQL writes row counts as literals, never a bound LIMIT or OFFSET (docs/decisions/0302)', () => {
    const bound = /\b(LIMIT|OFFSET)\s+(\?|[@:$][A-Za-z_])/
    const bad = sources(join(root, 'envs'))
      .filter((f) => bound.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
    expect(bad).toEqual([])
  })
})
