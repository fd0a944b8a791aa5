// Identity's routes, imported by `loadRouter()` when a request first reaches the service (docs/decisions/0293).
import { createGoogleRouter } from '../core/http.ts'
import { authorizeRouter } from './routes/authorize.ts'
import { tokenRouter } from './routes/token.ts'
import { oidcRouter } from './routes/oidc.ts'
import { directoryTokensRouter } from './routes/directory-tokens.ts'
import { directoryUsersRouter } from './routes/directory-users.ts'
import { directoryGroupsRouter } from './routes/directory-groups.ts'
import { directoryAliasesRouter } from './routes/directory-aliases.ts'
import { directoryOrgUnitsRouter } from './routes/directory-orgunits.ts'
import { directoryCustomerRouter } from './routes/directory-customer.ts'
import { directoryDomainsRouter } from './routes/directory-domains.ts'
import { directoryPhotosRouter } from './routes/directory-photos.ts'
import { directorySchemasRouter } from './routes/directory-schemas.ts'
import { directoryRolesRouter } from './routes/directory-roles.ts'
import { directorySignInCodesRouter } from './routes/directory-sign-in-codes.ts'
import { directoryResourcesRouter } from './routes/directory-resources.ts'
import { dataTransferRouter } from './routes/datatransfer.ts'
import { iamRouter } from './routes/iam.ts'
import { iamCredentialsRouter } from './routes/iamcredentials.ts'

export const router = createGoogleRouter()
  .route('/', authorizeRouter)
  .route('/', tokenRouter)
  .route('/', oidcRouter)
  .route('/', directoryTokensRouter)
  .route('/', directoryUsersRouter)
  .route('/', directoryGroupsRouter)
  .route('/', directoryAliasesRouter)
  .route('/', directoryOrgUnitsRouter)
  .route('/', directoryCustomerRouter)
  .route('/', directoryDomainsRouter)
  .route('/', directoryPhotosRouter)
  .route('/', directorySchemasRouter)
  .route('/', directoryRolesRouter)
  .route('/', directorySignInCodesRouter)
  .route('/', dataTransferRouter)
  .route('/', directoryResourcesRouter)
  .route('/', iamRouter)
  .route('/', iamCredentialsRouter)
