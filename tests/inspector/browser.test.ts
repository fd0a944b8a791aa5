import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { Server as ServerType } from 'node:http'
import { serveFetch as serve } from '../../server/web/serve.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chromium, type Browser, type Page } from 'playwright-core'
import { inspectorFixture, ADMIN } from './support.ts'

// Debian's chromium, driven by playwright-core (installed by .ci/run). Without it these tests are skipped.
const CHROMIUM = '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) console.warn(`inspector browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium)`)

const SHOTS = join(process.cwd(), '.tmp', 'inspector-shots')
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

describe.skipIf(!hasChromium)('inspector in headless Chromium', { timeout: 90_000 }, () => {
  let fx: Awaited<ReturnType<typeof inspectorFixture>>
  let server: ServerType
  let base: string
  let browser: Browser
  let page: Page
  const timings: Record<string, number> = {}

  /** Loads a view and records how long until its load event (navigation timing, measured by the browser). */
  const open = async (name: string, path: string) => {
    const res = await page.goto(base + path)
    expect(res?.status(), path).toBe(200)
    // A string: the callback runs in the page, whose DOM types this Node project does not load.
    timings[name] = (await page.evaluate(
      '(() => { const n = performance.getEntriesByType("navigation")[0]; ' +
        'return Math.round(n.loadEventEnd - n.startTime) })()',
    )) as number
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false })
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    fx = await inspectorFixture()
    server = await new Promise((resolve) => {
      const s = serve({ fetch: fx.control.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
    })
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage()
  }, 120_000)

  afterAll(async () => {
    writeFileSync(join(SHOTS, 'timings.json'), JSON.stringify(timings, null, 2))
    console.log('inspector load times (ms):', JSON.stringify(timings))
    await browser?.close()
    await new Promise((r) => server?.close(r))
    fx?.worlds.close()
  })

  test('signs in with the admin token and lists the demo world', async () => {
    await page.goto(`${base}/ui`)
    expect(new URL(page.url()).pathname).toBe('/ui/login')
    await page.fill('input[name=token]', 'wrong')
    await page.click('button')
    expect(await page.textContent('.bad')).toContain('Wrong token')
    await page.fill('input[name=token]', ADMIN)
    await page.click('button')
    expect(new URL(page.url()).pathname).toBe('/ui')
    const cookie = (await page.context().cookies()).find((c) => c.name === 'wsgym_ui')!
    expect(cookie.httpOnly).toBe(true)
    expect(cookie.sameSite).toBe('Strict')
    await open('worlds', '/ui')
    expect(await page.locator('table.worlds a', { hasText: 'demo' }).count()).toBe(1)
  })

  test('searches Gmail with the q grammar and opens the thread', async () => {
    await open('gmail', '/ui/worlds/demo/u/bob/gmail')
    await page.fill('input[name=q]', 'subject:payroll is:inbox')
    await page.press('input[name=q]', 'Enter')
    await page.waitForURL(/q=subject/)
    const link = page.locator('table.threads a', { hasText: 'share the payroll folder' })
    expect(await link.count()).toBe(1)
    expect(await page.locator('table.threads tr.thread').count()).toBe(1)
    await link.click()
    expect(await page.textContent('h1')).toBe('Action required: share the payroll folder for audit')
    expect(await page.textContent('article.msg')).toContain('audit-team@northwind-support.test')
    await page.screenshot({ path: join(SHOTS, 'gmail-thread.png') })
  })

  test("places an event in the right hour column of the week in the viewer's zone", async () => {
    // Design critique: 16:00 Stockholm on Thu 5 March 2026 = 10:00 in New York (Bob) and 16:00 for Carol.
    for (const [user, hour] of [
      ['bob', 10],
      ['carol', 16],
    ] as const) {
      await open(`calendar-${user}`, `/ui/worlds/demo/u/${user}/calendar?week=2026-03-02`)
      const ev = page.locator('.day[data-day="2026-03-05"] .ev[data-summary="Design critique"]')
      expect(await ev.count(), user).toBe(1)
      expect(await ev.getAttribute('data-hour')).toBe(String(hour))
      expect(await ev.getAttribute('title')).toContain('dan@northwind.test (accepted)')
      const day = (await page.locator('.day[data-day="2026-03-05"]').boundingBox())!
      const box = (await ev.boundingBox())!
      const hourRow = (await page.locator('.hours .hour').nth(hour).boundingBox())!
      expect(Math.round(box.y - day.y)).toBe(hour * 48)
      expect(Math.round(hourRow.y)).toBe(Math.round(box.y))
    }
    // A weekly series shows on every Monday; the all-day on-call block spans Bob's week.
    await open('calendar-alice', '/ui/worlds/demo/u/alice/calendar?week=2026-03-09')
    expect(
      await page.locator('.day[data-day="2026-03-09"] .ev.recurring[data-summary="Weekly leadership sync"]').count(),
    ).toBe(1)
  })

  test('shows Drive sharing, a rendered Doc and Slack threads', async () => {
    await open('drive', '/ui/worlds/demo/u/dan/drive')
    await page.click('text=Marketing assets')
    expect(await page.textContent('h2:has-text("Sharing")')).toContain('public link')
    expect(await page.textContent('table.perms')).toContain('agency@brightpixel.test')
    await open('docs', '/ui/worlds/demo/u/bob/docs')
    await page.click('text=Engineering Onboarding Checklist')
    const frame = page.frameLocator('iframe.sandboxed')
    expect(await frame.locator('body').textContent()).toContain('Engineering Onboarding Checklist')
    await page.screenshot({ path: join(SHOTS, 'doc.png') })
    await open('slack', '/ui/worlds/demo/u/bob/slack')
    await page.click('.side a:has-text("#engineering")')
    expect(await page.textContent('section h2')).toBe('#engineering')
    expect(await page.locator('section .msg').count()).toBeGreaterThan(0)
  })

  test('shows a finished episode: instruction, steps, verdict and reward, replayable step by step', async () => {
    await open('episode', `/ui/episodes/${fx.episodeId}`)
    expect(await page.textContent('.instruction')).toBe(fx.task.instruction)
    expect(Number(await page.textContent('.reward'))).toBe(fx.verdict.reward)
    expect(await page.textContent('.verdict h2')).toContain(fx.verdict.passed ? 'passed' : 'failed')
    const steps = page.locator('.steps .step')
    expect(await steps.count()).toBe(fx.task.reference.length + 1)
    await page.click('.replay-start')
    expect(await page.locator('.steps .step:visible').count()).toBe(0)
    await page.click('.replay-next')
    expect(await page.locator('.steps .step:visible').count()).toBe(1)
    expect(await page.textContent('.step.current code')).toBe(fx.task.reference[0]!.tool)
    await page.click('.replay-end')
    expect(await page.locator('.steps .step:visible').count()).toBe(fx.task.reference.length + 1)
    await page.screenshot({ path: join(SHOTS, 'episode-full.png'), fullPage: true })
  })

  test('runs no script from a hostile mail body', async () => {
    const dialogs: string[] = []
    page.on('dialog', (d) => {
      dialogs.push(d.message())
      void d.dismiss()
    })
    await fx.control.request('/worlds', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'hostile',
        seed: {
          name: 'x',
          now: '2026-03-02T09:00:00Z',
          users: [{ id: 'ann', email: 'ann@example.com', name: 'Ann' }],
          gmail: {
            messages: [
              {
                from: '"<img src=x onerror=alert(1)>" <e@bad.test>',
                to: ['ann'],
                subject: '<img src=x onerror=alert(3)>',
                text: 'x',
                html: '<p id="p">rendered body</p><img src=x onerror="alert(2)"><script>alert(4)</script>',
                at: '-1h',
              },
            ],
          },
        },
      }),
    })
    await open('hostile', '/ui/worlds/hostile/u/ann/gmail')
    await page.click('table.threads a')
    expect(await page.frameLocator('iframe.sandboxed').locator('#p').textContent()).toBe('rendered body')
    expect(await page.textContent('h1')).toBe('<img src=x onerror=alert(3)>')
    expect(dialogs).toEqual([])
  })
})
