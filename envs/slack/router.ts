// Slack's routes, imported by `loadRouter()` when a request first reaches the service (docs/decisions/0293).
import { createSlackRouter } from '../core/http.ts'
import { charsetWarning } from './warnings.ts'
import { callChecks } from './call-checks.ts'
import { authRouter } from './routes/auth.ts'
import { chatRouter } from './routes/chat.ts'
import { conversationsRouter } from './routes/conversations.ts'
import { historyRouter } from './routes/history.ts'
import { usersRouter } from './routes/users.ts'
import { reactionsRouter } from './routes/reactions.ts'
import { filesRouter } from './routes/files.ts'
import { searchRouter } from './routes/search.ts'
import { remindersRouter } from './routes/reminders.ts'
import { extrasRouter } from './routes/extras.ts'
import { adminConversationsRouter } from './routes/admin-conversations.ts'
import { adminUsersRouter } from './routes/admin-users.ts'
import { adminTeamRouter } from './routes/admin-team.ts'
import { adminRolesRouter } from './routes/admin-roles.ts'
import { canvasesRouter } from './routes/canvases.ts'
import { callsRouter } from './routes/calls.ts'
import { viewsRouter } from './routes/views.ts'
import { appMessagesRouter } from './routes/app-messages.ts'
import { remoteFilesRouter } from './routes/remote-files.ts'
import { profilePhotoRouter } from './routes/profile-photo.ts'
import { listsRouter } from './routes/lists.ts'
import { listExportsRouter } from './routes/list-exports.ts'
import { fileDownloadsRouter } from './routes/file-downloads.ts'
import { appsRouter } from './routes/apps.ts'
import { adminAppsRouter } from './routes/admin-apps.ts'
import { adminPolicyRouter } from './routes/admin-policy.ts'

export const router = createSlackRouter()
router.use('/api/*', charsetWarning)
router.use('/api/*', callChecks)
router
  .route('/', authRouter)
  .route('/', chatRouter)
  .route('/', conversationsRouter)
  .route('/', historyRouter)
  .route('/', usersRouter)
  .route('/', reactionsRouter)
  .route('/', filesRouter)
  .route('/', searchRouter)
  .route('/', remindersRouter)
  .route('/', extrasRouter)
  .route('/', adminConversationsRouter)
  .route('/', adminUsersRouter)
  .route('/', adminTeamRouter)
  .route('/', adminRolesRouter)
  .route('/', canvasesRouter)
  .route('/', callsRouter)
  .route('/', viewsRouter)
  .route('/', appMessagesRouter)
  .route('/', remoteFilesRouter)
  .route('/', profilePhotoRouter)
  .route('/', listsRouter)
  .route('/', listExportsRouter)
  .route('/', fileDownloadsRouter)
  .route('/', appsRouter)
  .route('/', adminAppsRouter)
  .route('/', adminPolicyRouter)
