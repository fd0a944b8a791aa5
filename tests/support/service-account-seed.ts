/**
 * The world the service-account tests share: Ann (a domain admin and the project's owner) and Ben in example.com,
 * and project `acme-ops` with the given service accounts (and domain-wide delegations, where a test needs them).
 */
export function serviceAccountSeed(
  name: string,
  serviceAccounts: readonly { email: string; displayName?: string }[],
  delegations?: readonly { client: string; scopes: readonly string[] }[],
) {
  return {
    name,
    now: '2026-03-02T09:00:00Z',
    domain: 'example.com',
    users: [
      { id: 'ann', email: 'ann@example.com', name: 'Ann Lee', admin: true },
      { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
    ],
    identity: {
      serviceAccounts,
      iamBindings: [{ resource: 'projects/acme-ops', role: 'roles/owner', members: ['ann'] }],
      ...(delegations ? { delegations } : {}),
    },
  }
}
