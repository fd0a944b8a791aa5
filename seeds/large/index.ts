import type { SeedDocument } from '../../server/seeding.ts'
import { Rng } from '../../envs/core/rng.ts'
import { demoSeed } from '../demo/index.ts'
import { DEMO_DOMAIN, DEMO_NOW, demoUsers } from '../demo/people.ts'
import { largeGmail } from '../demo/gmail.ts'
import { largeCalendar } from '../demo/calendar.ts'
import { largeDrive } from '../demo/drive.ts'
import { largeDocs } from '../demo/docs.ts'
import { largeSlack } from '../demo/slack.ts'

/**
 * The large workspace for benchmarks: the demo company with each service's large slice
 * (about 5,000 mails, 1,000 calendar events, 2,000 files and 10,000 Slack messages; services add theirs as they land).
 */
export function largeSeed(seedValue = 1): SeedDocument {
  const ctx = { rng: new Rng(seedValue), users: demoUsers, now: DEMO_NOW, domain: DEMO_DOMAIN }
  return {
    ...demoSeed(seedValue),
    name: 'large',
    gmail: largeGmail(ctx),
    calendar: largeCalendar(ctx),
    drive: largeDrive(ctx),
    docs: largeDocs(ctx),
    slack: largeSlack(ctx),
  }
}
