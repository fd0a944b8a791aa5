import type { ServiceProvider } from '../core/service.ts'
import { createGoogleRouter } from '../core/http.ts'
import { specMethods } from './api/methods.gen.ts'
import { fieldTables } from './api/fields.gen.ts'
import { identityTables } from './schema.ts'
import { authorizeRouter } from './routes/authorize.ts'
import { tokenRouter } from './routes/token.ts'
import { oidcRouter } from './routes/oidc.ts'
import { directoryTokensRouter } from './routes/directory-tokens.ts'
import { directoryUsersRouter } from './routes/directory-users.ts'
import { directoryGroupsRouter } from './routes/directory-groups.ts'
import { directoryResourcesRouter } from './routes/directory-resources.ts'
import { dataTransferRouter } from './routes/datatransfer.ts'
import { iamRouter } from './routes/iam.ts'
import { iamCredentialsRouter } from './routes/iamcredentials.ts'
import { identitySeedSchema, seedIdentity, type IdentitySeed } from './seed.ts'
import { dumpIdentity } from './state.ts'

const router = createGoogleRouter()
  .route('/', authorizeRouter).route('/', tokenRouter).route('/', oidcRouter).route('/', directoryTokensRouter)
  .route('/', directoryUsersRouter).route('/', directoryGroupsRouter).route('/', dataTransferRouter)
  .route('/', directoryResourcesRouter).route('/', iamRouter).route('/', iamCredentialsRouter)

/**
 * OAuth 2.0 / OpenID Connect at Google's paths, connected apps, the Admin SDK Directory and Data Transfer APIs, and
 * service accounts (IAM, IAM Credentials, the JWT-bearer grant and domain-wide delegation).
 */
export const identity: ServiceProvider<'identity', IdentitySeed> = {
  name: 'identity',
  family: 'google',
  tables: identityTables,
  router,
  pathPrefixes: [
    '/o/oauth2/', '/token', '/revoke', '/tokeninfo', '/v1/userinfo', '/oauth2/', '/.well-known/openid-configuration',
    '/admin/directory/v1/', '/admin/datatransfer/v1/',
    // IAM (iam.googleapis.com) and IAM Credentials (iamcredentials.googleapis.com), reached through `rootUrl`.
    '/v1/projects/',
  ],
  specMethods,
  fieldTables,
  seedSchema: identitySeedSchema,
  seed: seedIdentity,
  dump: dumpIdentity,
}
