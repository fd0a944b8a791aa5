import type { ServiceProvider } from '../core/service.ts'
import { specMethods } from './api/methods.gen.ts'
import { fieldTables } from './api/fields.gen.ts'
import { gmailTables } from './schema.ts'
import { GmailSeed, seedGmail } from './seed.ts'
import { dumpGmail } from './state.ts'

/**
 * Gmail API v1: mailboxes of every world user, RFC 822 messages, threads, labels, drafts, history,
 * search, filters and settings. `users.settings.cse.*` and S/MIME answer 501.
 * @see https://developers.google.com/gmail/api/reference/rest
 */
export const gmail: ServiceProvider<'gmail', GmailSeed> = {
  name: 'gmail',
  family: 'google',
  tables: gmailTables,
  loadRouter: () => import('./router.ts').then((m) => m.router),
  pathPrefixes: ['/gmail/v1/', '/upload/gmail/v1/', '/resumable/upload/gmail/v1/'],
  get specMethods() {
    return specMethods()
  },
  get fieldTables() {
    return fieldTables()
  },
  seedSchema: GmailSeed,
  seed: seedGmail,
  dump: dumpGmail,
}
