import type { ServiceProvider } from '../core/service.ts'
import { specMethods } from './api/methods.gen.ts'
import { fieldTables } from './api/fields.gen.ts'
import { identityTables } from './schema.ts'
import { identitySeedSchema, seedIdentity, type IdentitySeed } from './seed.ts'
import { dumpIdentity } from './state.ts'

/**
 * OAuth 2.0 / OpenID Connect at Google's paths, connected apps, the Admin SDK Directory and Data Transfer APIs, and
 * service accounts (IAM, IAM Credentials, the JWT-bearer grant and domain-wide delegation).
 */
export const identity: ServiceProvider<'identity', IdentitySeed> = {
  name: 'identity',
  family: 'google',
  tables: identityTables,
  loadRouter: () => import('./router.ts').then((m) => m.router),
  pathPrefixes: [
    '/o/oauth2/',
    '/token',
    '/revoke',
    '/tokeninfo',
    '/v1/userinfo',
    '/oauth2/',
    '/.well-known/openid-configuration',
    '/admin/directory/v1/',
    '/admin/datatransfer/v1/',
    // IAM (iam.googleapis.com) and IAM Credentials (iamcredentials.googleapis.com), reached through `rootUrl`.
    '/v1/projects/',
  ],
  get specMethods() {
    return specMethods()
  },
  get fieldTables() {
    return fieldTables()
  },
  seedSchema: identitySeedSchema,
  seed: seedIdentity,
  dump: dumpIdentity,
}
