import type { DemoContext } from './context.ts'

/** Demo content for calendar (filled in by the calendar service). */
export function demoCalendar(_ctx: DemoContext): Record<string, unknown> | undefined {
  return undefined
}
