import { emptySeed, emptyState } from '../core/stub.ts'
import type { ServiceProvider } from '../core/service.ts'
import { createSlackRouter } from '../core/http.ts'
import { specMethods } from './api/methods.gen.ts'
import { authRouter } from './routes/auth.ts'

const router = createSlackRouter().route('/', authRouter)

/** Slack Web API. */
export const slack: ServiceProvider<'slack'> = {
  name: 'slack',
  family: 'slack',
  tables: [],
  router,
  pathPrefixes: ['/api/'],
  specMethods,
  seedSchema: emptySeed,
  seed() {},
  dump: emptyState,
}
