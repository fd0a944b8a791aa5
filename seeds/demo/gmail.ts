import type { DemoContext } from './context.ts'

/** Demo content for gmail (filled in by the gmail service). */
export function demoGmail(_ctx: DemoContext): Record<string, unknown> | undefined {
  return undefined
}
