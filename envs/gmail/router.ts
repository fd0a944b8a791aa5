// Gmail's routes, imported by `loadRouter()` when a request first reaches the service (docs/decisions/0293).
import { createGoogleRouter } from '../core/http.ts'
import { profileRouter } from './routes/profile.ts'
import { messagesRouter } from './routes/messages.ts'
import { threadsRouter } from './routes/threads.ts'
import { labelsRouter } from './routes/labels.ts'
import { draftsRouter } from './routes/drafts.ts'
import { historyRouter } from './routes/history.ts'
import { settingsRouter } from './routes/settings.ts'
import { sendAsRouter } from './routes/send-as.ts'

export const router = createGoogleRouter()
  .route('/', profileRouter)
  .route('/', messagesRouter)
  .route('/', threadsRouter)
  .route('/', labelsRouter)
  .route('/', draftsRouter)
  .route('/', historyRouter)
  .route('/', settingsRouter)
  .route('/', sendAsRouter)
