import { Rng } from '../../envs/core/rng.ts'
import type { SeedDocument } from '../../server/seeding.ts'
import { DEMO_DOMAIN, DEMO_NOW, DEMO_ORG, demoUsers } from './people.ts'
import { demoGmail } from './gmail.ts'
import { demoCalendar } from './calendar.ts'
import { demoDrive } from './drive.ts'
import { demoSlack } from './slack.ts'
import { demoDocs } from './docs.ts'
import { demoIdentity } from './identity.ts'

/**
 * The demo workspace: a small realistic company (5 people) with mail threads, calendars, files and
 * docs, and Slack channels. Generated from code; the seed value varies names, dates and distractors.
 */
export function demoSeed(seedValue = 1): SeedDocument {
  const rng = new Rng(seedValue)
  const ctx = { rng, users: demoUsers, now: DEMO_NOW, domain: DEMO_DOMAIN }
  return {
    name: 'demo',
    description: `${DEMO_ORG} demo workspace`,
    now: DEMO_NOW,
    domain: DEMO_DOMAIN,
    organization: DEMO_ORG,
    users: demoUsers,
    gmail: demoGmail(ctx),
    calendar: demoCalendar(ctx),
    drive: demoDrive(ctx),
    docs: demoDocs(ctx),
    slack: demoSlack(ctx),
    identity: demoIdentity(ctx),
  }
}
