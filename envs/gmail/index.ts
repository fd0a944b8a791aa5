import { emptySeed, emptyState } from '../core/stub.ts'
import type { ServiceProvider } from '../core/service.ts'
import { createGoogleRouter } from '../core/http.ts'
import { specMethods } from './api/methods.gen.ts'
import { profileRouter } from './routes/profile.ts'

const router = createGoogleRouter().route('/', profileRouter)

/** Gmail API v1. */
export const gmail: ServiceProvider<'gmail'> = {
  name: 'gmail',
  family: 'google',
  tables: [],
  router,
  pathPrefixes: ['/gmail/v1/', '/upload/gmail/v1/', '/resumable/upload/gmail/v1/'],
  specMethods,
  seedSchema: emptySeed,
  seed() {},
  dump: emptyState,
}
