import type { ServiceProvider } from '../core/service.ts'
import { specMethods } from './api/methods.gen.ts'
import { slackTables } from './schema.ts'
import { SlackSeed, seedSlack } from './seed.ts'
import { dumpSlack } from './state.ts'
import { slackClockAdvance, slackHasDueWork } from './clock.ts'

/**
 * Slack Web API: workspace members and bots, channels/DMs/MPIMs with membership and privacy,
 * messages and threads, reactions, pins, files (upload v2), scheduled messages and reminders that
 * fire on the world clock. Unimplemented spec methods answer `not_implemented` (see COVERAGE.md).
 * @see https://api.slack.com/methods
 */
export const slack: ServiceProvider<'slack', SlackSeed> = {
  name: 'slack',
  family: 'slack',
  tables: slackTables,
  loadRouter: () => import('./router.ts').then((m) => m.router),
  pathPrefixes: ['/api/', '/_upload/slack/'],
  get specMethods() {
    return specMethods()
  },
  seedSchema: SlackSeed,
  seed: seedSlack,
  dump: dumpSlack,
  onClockAdvance: slackClockAdvance,
  hasDueWork: slackHasDueWork,
}
