// The IAM (iam.googleapis.com/v1) and IAM Credentials (iamcredentials.googleapis.com/v1) methods identity serves.
// Their discovery documents are not vendored (only these eight methods are served); the paths, verbs, parameters and
// scopes follow the generated `iam_v1` and `iamcredentials_v1` clients of the installed googleapis package.

const CLOUD = ['https://www.googleapis.com/auth/cloud-platform']
const name = { location: 'path', type: 'string', required: true, description: 'Resource name.' }
const account = 'v1/projects/{projectsId}/serviceAccounts/{serviceAccountsId}'

const method = (id: string, httpMethod: string, flatPath: string, extra: Record<string, unknown> = {}) => ({
  id,
  httpMethod,
  path: 'v1/{+name}',
  flatPath,
  servicePath: '',
  description: '',
  parameters: { name },
  scopes: CLOUD,
  ...extra,
})

export const iamMethods = [
  method('iam.projects.serviceAccounts.list', 'GET', 'v1/projects/{projectsId}/serviceAccounts', {
    parameters: {
      name,
      pageSize: { location: 'query', type: 'integer', format: 'int32', description: 'Page size.' },
      pageToken: { location: 'query', type: 'string', description: 'Page token.' },
    },
  }),
  method('iam.projects.serviceAccounts.get', 'GET', account),
  method('iam.projects.serviceAccounts.keys.create', 'POST', `${account}/keys`),
  method('iam.projects.serviceAccounts.keys.list', 'GET', `${account}/keys`, {
    parameters: { name, keyTypes: { location: 'query', type: 'string', repeat: true, description: 'Key types.' } },
  }),
  method('iam.projects.serviceAccounts.keys.get', 'GET', `${account}/keys/{keysId}`),
  method('iam.projects.serviceAccounts.keys.delete', 'DELETE', `${account}/keys/{keysId}`),
  method('iamcredentials.projects.serviceAccounts.signJwt', 'POST', `${account}:signJwt`),
  method('iamcredentials.projects.serviceAccounts.signBlob', 'POST', `${account}:signBlob`),
]
