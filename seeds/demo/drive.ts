import type { DemoContext } from './context.ts'

/** Demo content for drive (filled in by the drive service). */
export function demoDrive(_ctx: DemoContext): Record<string, unknown> | undefined {
  return undefined
}
