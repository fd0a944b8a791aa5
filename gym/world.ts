import { createHash } from 'node:crypto'
import type { TaskSpec } from './task.ts'
import { taskWorldSeed } from '../tasks-lite/world/index.ts'

/**
 * The template of a task whose world has background volume: keyed by the task id, its inline seed's hash, its
 * services and the volume, so the large document is generated once per template (not hashed on every reset).
 * Undefined for tasks without volume (their inline seed is the template, as before).
 */
export function worldTemplate(spec: TaskSpec): { key: string; build: () => Record<string, unknown> } | undefined {
  const volume = spec.world?.volume ?? 'none'
  if (volume === 'none' || typeof spec.seed === 'string') return undefined
  const hash = createHash('sha256').update(JSON.stringify(spec.seed)).digest('hex')
  return {
    key: `world:${volume}:${spec.id}:${spec.services.join(',')}:${hash}`,
    build: () => taskWorldSeed(spec) as Record<string, unknown>,
  }
}
