import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { google } from 'googleapis'
import { startSdkServer, type SdkServer } from './server.ts'
import { oauth2clientCredential } from './oauth2client.ts'

// gcalcli (Debian package gcalcli), a real Calendar command line built on google-api-python-client, run unchanged
// against this server but for the Discovery URL (tests/sdk/python/gcalcli_at.py).
const PYTHON = process.env.WSGYM_PYTHON ?? '/usr/bin/python3'
const probe = spawnSync(PYTHON, ['-c', 'import gcalcli.cli, vobject'], { encoding: 'utf8' })
const missing = probe.status === 0 ? '' : 'gcalcli is not installed (apt-get install gcalcli python3-vobject)'
const run = promisify(execFile)

describe.skipIf(missing !== '')(`gcalcli${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let server: SdkServer
  let dir: string
  let me: SdkServer['tokens'][number]
  const calendar = () => google.calendar({ version: 'v3', auth: server.auth(), rootUrl: server.url })
  const gcalcli = async (...args: string[]) =>
    (
      await run(
        PYTHON,
        [join(import.meta.dirname, 'python', 'gcalcli_at.py'), '--config-folder', dir, '--nocolor', ...args],
        { env: { ...process.env, TZ: 'UTC', HOME: dir, WSGYM_URL: server.url }, encoding: 'utf8', timeout: 60_000 },
      )
    ).stdout
  const eventsOn = async (day: string) =>
    (
      await calendar().events.list({
        calendarId: 'primary',
        timeMin: `${day}T00:00:00Z`,
        timeMax: `${day}T23:59:59Z`,
        singleEvents: true,
        orderBy: 'startTime',
      })
    ).data.items!

  beforeAll(async () => {
    server = await startSdkServer('demo')
    me = server.tokens[0]!
    dir = mkdtempSync(join(tmpdir(), 'wsgym-gcalcli-'))
    // oauth2client's stored credential, as gcalcli's own OAuth flow would leave it in the config folder.
    const credential = oauth2clientCredential(
      me.googleToken!,
      server.url,
      'gcalcli.apps.googleusercontent.com',
      'https://www.googleapis.com/auth/calendar',
    )
    writeFileSync(join(dir, 'oauth'), JSON.stringify(credential))
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    if (dir && existsSync(dir)) rmSync(dir, { recursive: true, force: true })
  })

  test('list and agenda show the calendars and the events the API lists', async () => {
    const calendars = (await calendar().calendarList.list()).data.items!
    const listed = await gcalcli('list')
    for (const c of calendars) expect(listed).toContain(c.summary)
    const agenda = await gcalcli('agenda', '2026-03-02', '2026-03-03')
    const items = await eventsOn('2026-03-02')
    expect(items.length).toBeGreaterThan(0)
    for (const e of items) expect(agenda).toContain(e.summary)
  }, 90_000)

  test('add, quick and import create the events they describe', async () => {
    await gcalcli(
      '--calendar',
      me.email!,
      'add',
      '--title',
      'Planning session',
      '--when',
      '2026-03-06 10:00',
      '--duration',
      '45',
      '--where',
      'Room 1',
      '--description',
      'Q2 plan',
      '--noprompt',
    )
    await gcalcli('--calendar', me.email!, 'quick', 'Lunch with Bob March 6 2026 12:30')
    const ics = join(dir, 'event.ics')
    writeFileSync(
      ics,
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//wsgym test//EN\r\nBEGIN:VEVENT\r\nUID:gcalcli-import-1@test\r\n' +
        'DTSTART:20260306T150000Z\r\nDTEND:20260306T160000Z\r\nSUMMARY:Imported review\r\nLOCATION:Room 9\r\n' +
        'END:VEVENT\r\nEND:VCALENDAR\r\n',
    )
    await gcalcli('--calendar', me.email!, 'import', ics)
    const items = await eventsOn('2026-03-06')
    const planning = items.find((e) => e.summary === 'Planning session')
    expect(planning).toMatchObject({ location: 'Room 1', description: 'Q2 plan' })
    expect(Date.parse(planning!.end!.dateTime!) - Date.parse(planning!.start!.dateTime!)).toBe(45 * 60_000)
    expect(Date.parse(planning!.start!.dateTime!)).toBe(Date.parse('2026-03-06T10:00:00Z'))
    expect(items.some((e) => e.summary === 'Lunch with Bob')).toBe(true)
    const imported = items.find((e) => e.summary === 'Imported review')
    expect(imported?.location).toBe('Room 9')
    expect(Date.parse(imported!.start!.dateTime!)).toBe(Date.parse('2026-03-06T15:00:00Z'))
  }, 90_000)

  test('search finds an event by text, and delete removes it', async () => {
    expect(await gcalcli('search', 'Planning session', '2026-03-06', '2026-03-07')).toContain('Planning session')
    await gcalcli('delete', 'Planning session', '2026-03-06', '2026-03-07', '--iamaexpert')
    const items = await eventsOn('2026-03-06')
    expect(items.some((e) => e.summary === 'Planning session')).toBe(false)
    expect(items.some((e) => e.summary === 'Imported review')).toBe(true)
  }, 90_000)
})
