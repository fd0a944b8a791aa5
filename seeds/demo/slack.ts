import type { DemoContext } from './context.ts'

/** Demo content for slack (filled in by the slack service). */
export function demoSlack(_ctx: DemoContext): Record<string, unknown> | undefined {
  return undefined
}
