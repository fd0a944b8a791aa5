import type { SeedDocument } from '../../server/seeding.ts'
import { demoSeed } from '../demo/index.ts'

/**
 * The large workspace for benchmarks: the demo company with about 5,000 mails, 1,000 events,
 * 2,000 files and 10,000 Slack messages. Services extend their demo slices with `scale`.
 */
export function largeSeed(seedValue = 1): SeedDocument {
  return { ...demoSeed(seedValue), name: 'large' }
}
