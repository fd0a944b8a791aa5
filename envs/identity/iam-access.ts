import { GoogleApiError } from '../core/errors/google.ts'
import type { WorldContext } from '../core/http.ts'
import { findServiceAccount, rolesOn, type ServiceAccountRow } from './store/service-accounts.ts'

const READ = [
  'iam.serviceAccounts.get',
  'iam.serviceAccounts.list',
  'iam.serviceAccountKeys.get',
  'iam.serviceAccountKeys.list',
]
const KEYS = ['iam.serviceAccountKeys.create', 'iam.serviceAccountKeys.delete']
const SIGN = ['iam.serviceAccounts.signJwt', 'iam.serviceAccounts.signBlob', 'iam.serviceAccounts.getAccessToken']

/**
 * The permissions of the predefined roles, as far as these methods need them. As in Google Cloud, Owner and Editor
 * do not include signing as an account: impersonation needs Service Account Token Creator.
 */
const ROLE_PERMISSIONS: Record<string, readonly string[]> = {
  'roles/owner': [...READ, ...KEYS],
  'roles/editor': [...READ, ...KEYS],
  'roles/viewer': READ,
  'roles/iam.serviceAccountKeyAdmin': [...READ, ...KEYS],
  'roles/iam.serviceAccountTokenCreator': ['iam.serviceAccounts.get', 'iam.serviceAccounts.list', ...SIGN],
  'roles/iam.serviceAccountUser': ['iam.serviceAccounts.get', 'iam.serviceAccounts.list'],
}

/** IAM's 403: the same whether the resource is missing or the caller lacks the permission. */
export class IamDenied extends GoogleApiError {
  constructor(readonly permission: string) {
    super('PERMISSION_DENIED', 'forbidden', `Permission '${permission}' denied on resource (or it may not exist).`)
  }

  override toBody() {
    const body = super.toBody()
    const detail = {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'IAM_PERMISSION_DENIED',
      domain: 'iam.googleapis.com',
      metadata: { permission: this.permission },
    }
    return { error: { ...body.error, details: [detail] } }
  }
}

/** Whether the caller holds `permission` through a role on the project or on the account itself. */
export function holds(c: WorldContext, permission: string, projectId: string, email?: string): boolean {
  const db = c.var.world.db
  const roles = [
    ...rolesOn(db, `projects/${projectId}`, c.var.user.id),
    ...(email ? rolesOn(db, email, c.var.user.id) : []),
  ]
  return roles.some((r) => ROLE_PERMISSIONS[r]?.includes(permission))
}

/** A path segment percent-decoded once more (`%40` for `@`); malformed escapes are kept as they are, never a 500. */
function decodedOrAsIs(key: string): string {
  try {
    return decodeURIComponent(key)
  } catch {
    return key
  }
}

export const badName = (name: string) =>
  new GoogleApiError('INVALID_ARGUMENT', 'badRequest', `Invalid resource name: ${name}`)

/**
 * The account `projects/{project}/serviceAccounts/{emailOrId}` names, if the caller may use `permission` on it.
 * A missing account is 404 to a caller with the permission on the project, otherwise the same 403 as a denial.
 */
export function accountFor(c: WorldContext, project: string, key: string, permission: string): ServiceAccountRow {
  const sa = findServiceAccount(c.var.world.db, decodedOrAsIs(key))
  const found = sa && (project === '-' || project === sa.projectId) ? sa : undefined
  if (!found) {
    if (project !== '-' && holds(c, permission, project)) {
      throw new GoogleApiError('NOT_FOUND', 'notFound', 'Unknown service account')
    }
    throw new IamDenied(permission)
  }
  if (!holds(c, permission, found.projectId, found.email)) throw new IamDenied(permission)
  return found
}
