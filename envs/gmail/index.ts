import type { ServiceProvider } from '../core/service.ts'
import { createGoogleRouter } from '../core/http.ts'
import { specMethods } from './api/methods.gen.ts'
import { fieldTables } from './api/fields.gen.ts'
import { gmailTables } from './schema.ts'
import { GmailSeed, seedGmail } from './seed.ts'
import { dumpGmail } from './state.ts'
import { profileRouter } from './routes/profile.ts'
import { messagesRouter } from './routes/messages.ts'
import { threadsRouter } from './routes/threads.ts'
import { labelsRouter } from './routes/labels.ts'
import { draftsRouter } from './routes/drafts.ts'
import { historyRouter } from './routes/history.ts'
import { settingsRouter } from './routes/settings.ts'
import { sendAsRouter } from './routes/send-as.ts'

const router = createGoogleRouter()
  .route('/', profileRouter)
  .route('/', messagesRouter)
  .route('/', threadsRouter)
  .route('/', labelsRouter)
  .route('/', draftsRouter)
  .route('/', historyRouter)
  .route('/', settingsRouter)
  .route('/', sendAsRouter)

/**
 * Gmail API v1: mailboxes of every world user, RFC 822 messages, threads, labels, drafts, history,
 * search, filters and settings. `users.settings.cse.*` and S/MIME answer 501.
 * @see https://developers.google.com/gmail/api/reference/rest
 */
export const gmail: ServiceProvider<'gmail', GmailSeed> = {
  name: 'gmail',
  family: 'google',
  tables: gmailTables,
  router,
  pathPrefixes: ['/gmail/v1/', '/upload/gmail/v1/', '/resumable/upload/gmail/v1/'],
  specMethods,
  fieldTables,
  seedSchema: GmailSeed,
  seed: seedGmail,
  dump: dumpGmail,
}
