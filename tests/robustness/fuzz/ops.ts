import { FUZZ_SEED, type Fuzz, type Op } from './engine.ts'
import { slackOps, slackSetup } from './ops-slack.ts'
import { gmailOps } from './ops-gmail.ts'
import { calendarOps } from './ops-calendar.ts'
import { docsMoreOps, docsOps } from './ops-docs.ts'
import { driveOps, driveSetup } from './ops-drive.ts'
import { channelOps, channelsSetup } from './ops-channels.ts'
import { mailOps, mailSetup } from './ops-mail.ts'
import { mailMoreOps, mailMoreSetup } from './ops-mail2.ts'
import { dmOps, dmsSetup } from './ops-dms.ts'
import { groupOps, groupsSetup } from './ops-groups.ts'
import { seriesOps } from './ops-series.ts'
import { drivesOps } from './ops-drives.ts'
import { shareOps } from './ops-share.ts'
import { inviteOps } from './ops-invites.ts'
import { docStructOps } from './ops-docs2.ts'
import { ownersOps, ownersSetup } from './ops-owners.ts'
import { docSegsOps } from './ops-docs3.ts'
import { docTabsOps } from './ops-tabs.ts'
import { docBatchOps } from './ops-docs4.ts'
import { CONSUMER_SEED, consumerSetup, ownersConsumerOps } from './ops-owners2.ts'

// Every service's operations plus the control plane's snapshot, restore and fork.

const controlOps: Op[] = [
  { name: 'control.snapshot', weight: 1, run: (f) => f.snapshot() },
  { name: 'control.restore', weight: 1, run: (f) => f.restore() },
  { name: 'control.fork', weight: 1, run: (f) => f.fork() },
]

type Family = { ops: Op[]; setup?: (f: Fuzz) => Promise<void>; world?: typeof FUZZ_SEED }

export const SERVICES: Record<string, Family> = {
  gmail: { ops: gmailOps },
  calendar: { ops: calendarOps },
  docs: { ops: docsOps },
  drive: { ops: driveOps, setup: driveSetup },
  slack: { ops: slackOps, setup: slackSetup },
  channels: { ops: channelOps, setup: channelsSetup },
  mail: { ops: mailOps, setup: mailSetup },
  mailMore: { ops: mailMoreOps, setup: mailMoreSetup },
  dms: { ops: dmOps, setup: dmsSetup },
  groups: { ops: groupOps, setup: groupsSetup },
  series: { ops: seriesOps },
  drives: { ops: drivesOps },
  share: { ops: shareOps },
  invites: { ops: inviteOps },
  docsMore: { ops: docsMoreOps, setup: async (f) => void f.options.add('paragraphs') },
  docStruct: { ops: docStructOps },
  owners: { ops: ownersOps, setup: ownersSetup },
  docSegs: { ops: docSegsOps },
  docTabs: { ops: docTabsOps },
  docBatch: { ops: docBatchOps },
  /** Its own world: Ann and Ben as consumer accounts (run it alone). */
  ownersConsumer: { ops: ownersConsumerOps, setup: consumerSetup, world: CONSUMER_SEED },
}

/**
 * The operations, setup and world for a set of services (all but those with a world of their own by default),
 * control-plane ops included.
 */
export function opsFor(names = Object.keys(SERVICES).filter((n) => !SERVICES[n]!.world)): {
  ops: Op[]
  setup: (f: Fuzz) => Promise<void>
  world: typeof FUZZ_SEED
} {
  const picked = names.map((n) => SERVICES[n]!)
  return {
    world: picked.find((s) => s.world)?.world ?? FUZZ_SEED,
    ops: [...picked.flatMap((s) => s.ops), ...controlOps],
    setup: async (f) => {
      for (const s of picked) await s.setup?.(f)
    },
  }
}
