/** Why a per-environment OpenEnv key is refused (at least 16 characters of [A-Za-z0-9_-]), or undefined. */
export function openEnvKeyProblem(key: string): string | undefined {
  if (key.length >= 16 && /^[A-Za-z0-9_-]+$/.test(key)) return undefined
  return 'an OpenEnv key needs at least 16 characters of [A-Za-z0-9_-]'
}
