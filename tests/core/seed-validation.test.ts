import { afterAll, describe, expect, test } from 'vitest'
import { writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { spawn, spawnSync } from 'node:child_process'
import { checkSeed, SeedError, validateSeed } from '../../server/seeding.ts'
import { WorldManager } from '../../server/worlds.ts'
import { createControlApp } from '../../server/control/app.ts'
import { wsgym as wsgymInProcess } from '../support/cli.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const root = join(import.meta.dirname, '..', '..')
const users = [
  { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
  { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
]

/** The issues seeding reports for a document, as `path: message` lines; [] when the world builds. */
function problems(doc: unknown, check: (d: unknown) => void = checkSeed): string[] {
  try {
    check(doc)
    return []
  } catch (e) {
    if (!(e instanceof SeedError)) throw e
    return e.issues.map((i) => `${i.path}: ${i.message}`)
  }
}
const paths = (doc: unknown, check?: (d: unknown) => void) =>
  problems(doc, check).map((p) => p.slice(0, p.indexOf(': ')))

const mail = (extra: Record<string, unknown>) => ({
  from: 'ann',
  to: ['ben'],
  subject: 's',
  text: 't',
  at: '-1d',
  ...extra,
})
const event = (extra: Record<string, unknown>) => ({
  calendar: 'ann',
  summary: 'x',
  start: { dateTime: '2026-03-03T10:00:00Z' },
  end: { dateTime: '2026-03-03T11:00:00Z' },
  ...extra,
})
const team = (extra: Record<string, unknown> = {}) => ({ key: 'team', owner: 'ann', summary: 'Team', ...extra })
const say = (extra: Record<string, unknown>) => ({ channel: 'general', user: 'ann', text: 'hi', at: '-1d', ...extra })

/** Seeds that seeding rejects, each with the field path its first issue must name. */
const BAD: [string, Record<string, unknown>, string][] = [
  [
    'a relative time with an unknown unit',
    { users, gmail: { messages: [mail({ at: '-2x' })] } },
    'gmail.messages[0].at',
  ],
  [
    'a Slack message time that is no time',
    { users, slack: { messages: [say({ channel: 'dm:ann,ben', at: '-2x' })] } },
    'slack.messages[0].at',
  ],
  [
    'a Slack reminder time that is no time',
    { users, slack: { reminders: [{ user: 'ann', text: 'x', at: 'soonish' }] } },
    'slack.reminders[0].at',
  ],
  [
    'a Drive file time that is no time',
    { users, drive: { files: [{ name: 'f', owner: 'ann', at: '2026-02-30' }] } },
    'drive.files[0].at',
  ],
  [
    'an unknown channel member',
    { users, slack: { channels: [{ name: 'general', members: ['ann', 'zed'] }] } },
    'slack.channels[0].members[1]',
  ],
  [
    'an unknown message author',
    { users, slack: { channels: [{ name: 'general' }], messages: [say({ user: 'zed' })] } },
    'slack.messages[0].user',
  ],
  [
    'a message in a channel that does not exist',
    { users, slack: { messages: [say({ channel: 'nowhere' })] } },
    'slack.messages[0].channel',
  ],
  ['an unknown mail recipient', { users, gmail: { messages: [mail({ to: ['zed'] })] } }, 'gmail.messages[0].to[0]'],
  [
    'an unknown calendar owner',
    { users, calendar: { calendars: [team({ owner: 'zed' })] } },
    'calendar.calendars[0].owner',
  ],
  [
    'an attendee that is neither user nor address',
    { users, calendar: { events: [event({ attendees: [{ user: 'zed' }] })] } },
    'calendar.events[0].attendees[0]',
  ],
  ['an unknown file owner', { users, drive: { files: [{ name: 'f', owner: 'zed' }] } }, 'drive.files[0].owner'],
  ['an invalid user time zone', { users: [{ ...users[0], timeZone: 'Mars/Olympus' }] }, 'users[0].timeZone'],
  [
    'an invalid calendar time zone',
    { users, calendar: { calendars: [team({ timeZone: 'Mars/Olympus' })] } },
    'calendar.calendars[0].timeZone',
  ],
  [
    'an invalid event time zone',
    { users, calendar: { events: [event({ start: { dateTime: '2026-03-03T10:00:00', timeZone: 'Mars/Olympus' } })] } },
    'calendar.events[0].start.timeZone',
  ],
  ['two users with one email', { users: [users[0], { ...users[1], email: 'ANN@example.com' }] }, 'users[1].email'],
  ['a misspelt user key', { users: [{ ...users[0], timezone: 'UTC' }] }, 'users[0].timezone'],
  [
    'a misspelt channel key',
    { users, slack: { channels: [{ name: 'general', memebrs: ['ann'] }] } },
    'slack.channels[0].memebrs',
  ],
  ['a misspelt mail key', { users, gmail: { messages: [mail({ lables: ['x'] })] } }, 'gmail.messages[0].lables'],
  [
    'a misspelt permission key',
    {
      users,
      drive: { files: [{ name: 'f', owner: 'ann', permissions: [{ type: 'anyone', role: 'reader', emial: 'x' }] }] },
    },
    'drive.files[0].permissions[0].emial',
  ],
  [
    'a misspelt attendee key',
    { users, calendar: { events: [event({ attendees: [{ user: 'ben', reponseStatus: 'accepted' }] })] } },
    'calendar.events[0].attendees[0].reponseStatus',
  ],
]

describe('seed validation', () => {
  test.each(BAD)('rejects %s, naming the field path', (_, doc, path) => {
    expect(paths(doc)).toContain(path)
  })

  test('finds schema-level problems without building the world', () => {
    const doc = {
      users: [users[0], { ...users[1], email: 'ann@example.com', timeZone: 'Mars/Olympus' }],
      slack: { messages: [say({ at: '-2x' })] },
      gmail: { vacation: [{ user: 'ann', responseBodyPlainText: 'away', restirctToDomain: true }] },
    }
    expect(paths(doc, validateSeed).sort()).toEqual([
      'gmail.vacation[0].restirctToDomain',
      'slack.messages[0].at',
      'users[1].email',
      'users[1].timeZone',
    ])
    expect(problems(doc, validateSeed)).toContain(
      'gmail.vacation[0].restirctToDomain: unknown key "restirctToDomain" ' + '(did you mean "restrictToDomain"?)',
    )
  })

  test('accepts what it should: relative and ISO times, IANA zones, keys given in any order', () => {
    const doc = {
      users: [
        { ...users[0], timeZone: 'Europe/Berlin' },
        { ...users[1], timeZone: 'UTC' },
      ],
      gmail: { messages: [mail({ to: ['ben', 'Out Side <out@side.test>'], at: '-2d3h' })] },
      slack: {
        channels: [{ name: 'general', members: ['ann', 'ben'] }],
        messages: [say({ user: 'ben', at: '2026-03-01T10:00:00+01:00' })],
      },
      calendar: { calendars: [{ key: 'team', owner: 'ann', summary: 'Team', timeZone: 'Asia/Tokyo' }] },
    }
    expect(problems(doc)).toEqual([])
  })
})

describe('POST /worlds with an inline seed', () => {
  const control = createControlApp(new WorldManager(), { adminToken: 'adm' })
  const post = async (seed: unknown) => {
    const headers = { authorization: 'Bearer adm', 'content-type': 'application/json' }
    const res = await control.request('/worlds', { method: 'POST', headers, body: JSON.stringify({ seed }) })
    return { status: res.status, body: (await res.json()) as { issues?: { path: string }[] } }
  }

  test.each(BAD)('answers 400 naming the path for %s', async (_, doc, path) => {
    const res = await post(doc)
    expect(res.status).toBe(400)
    expect(res.body.issues?.map((i) => i.path)).toContain(path)
  })

  test('never answers 500, whatever the seed holds', async () => {
    const odd: unknown[] = [
      { users, slack: { channels: [{ name: 'general' }, { name: 'general' }] } },
      { users, slack: { messages: [{ channel: 'dm:ann,zed', user: 'ann', text: 'x', at: 'now' }] } },
      { users, slack: { messages: [{ channel: 'dm:ann,ben', user: 'ann', text: 'x', at: 'now', thread: 'nope' }] } },
      { users, drive: { accessProposals: [{ file: 'missing', requester: 'ben' }] } },
      { users, docs: { documents: [{ id: 'missingdoc123' }] } },
      { users, gmail: { messages: [{ from: 'ann', subject: 's', text: 't', at: '+999999999999w' }] } },
      { users: [{ ...users[0], timeZone: '' }] },
      { users: 'ann' },
      [],
    ]
    const statuses = await Promise.all(odd.map(async (seed) => (await post(seed)).status))
    expect(statuses).toEqual(odd.map(() => 400))
  })
})

describe('wsgym serve and seed validate', () => {
  const tempDir = tempDirs()
  const dir = tempDir('wsgym-seedcli-')
  const wsgym = join(root, 'bin', 'wsgym.mjs')
  const cli = wsgymInProcess
  const bad = join(dir, 'bad.yaml')
  const ann = 'users:\n  - { id: ann, email: ann@example.com, name: Ann }\n'
  const general = 'slack:\n  channels:\n    - { name: general, members: [ann, zed] }\n'
  writeFileSync(bad, `${ann}${general}  messages:\n    - { channel: general, user: ann, text: hi, at: "-2x" }\n`)
  let busy: Server | undefined
  afterAll(() => busy?.close())

  test('seed validate reports what seeding would reject', async () => {
    const run = await cli('seed', 'validate', bad)
    expect(run.status).toBe(1)
    expect(run.stderr).toContain(`${bad}: slack.messages[0].at: not a time: "-2x"`)
    const fixedTime = join(dir, 'ref.yaml')
    writeFileSync(fixedTime, `${ann}${general}`)
    const second = await cli('seed', 'validate', fixedTime)
    expect(second.status).toBe(1)
    expect(second.stderr.trim()).toBe(`${fixedTime}: slack.channels[0].members[1]: no user "zed" in users[]`)
  })

  test('serve with a bad seed prints one line and exits non-zero', async () => {
    const run = await cli('serve', '--seed', bad, '--port', '0', '--control-port', '0')
    expect(run.status).toBe(1)
    const why = 'not a time: "-2x" (use ISO 8601, "now", or a relative offset like "-2d3h")'
    expect(run.stderr.split('\n')).toEqual([`wsgym serve: invalid seed ${bad}: slack.messages[0].at: ${why}`])
  })

  test('serve on a busy port names the port in one line and exits non-zero', async () => {
    busy = createServer()
    const port = await new Promise<number>((resolve) =>
      busy!.listen(0, '127.0.0.1', () => resolve((busy!.address() as { port: number }).port)),
    )
    const run = await cli('serve', '--seed', 'empty', '--port', String(port), '--control-port', '0')
    expect(run.status).toBe(1)
    const hint = '(choose another with --port / --control-port)'
    const busyLine = `wsgym serve: port ${port} on 127.0.0.1 is already in use ${hint}`
    expect(run.stderr.split('\n')).toEqual([busyLine])
  })

  test('serve refuses the published admin token on an address other machines can reach', async () => {
    const run = await cli('serve', '--seed', 'empty', '--host', '0.0.0.0', '--port', '0', '--control-port', '0')
    expect(run.status).toBe(1)
    const why = 'set a secret --admin-token (or WSGYM_ADMIN_TOKEN)'
    expect(run.stderr.split('\n')).toEqual([`wsgym serve: --host 0.0.0.0 is reachable from other machines: ${why}`])
  })

  test('the wsgym binary exits non-zero on a bad seed and prints the real admin token in its banner', async () => {
    const ports = ['--port', '0', '--control-port', '0']
    const failed = spawnSync(process.execPath, [wsgym, 'serve', '--seed', bad, ...ports], { encoding: 'utf8' })
    expect(failed.status).toBe(1)
    // (A checkout whose sources changed after `npm run build` adds the launcher's one-line tsx notice.)
    const lines = failed.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('wsgym: dist/ is older'))
    expect(lines).toHaveLength(1)
    const args = [wsgym, 'serve', '--seed', 'empty', ...ports, '--admin-token', 'banner-token-7']
    const child = spawn(process.execPath, args, { cwd: root })
    let out = ''
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString()
          if (out.includes('users:')) resolve()
        })
        child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)))
      })
    } finally {
      child.kill('SIGTERM')
    }
    expect(out).toMatch(/control plane {2}http:\/\/127\.0\.0\.1:\d+ {3}\(Authorization: Bearer banner-token-7;/)
    expect(out).not.toContain('<admin token>')
  })
})
