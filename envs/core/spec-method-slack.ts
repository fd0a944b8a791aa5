import type { SpecMethod } from './spec-method.ts'

/** A Slack Web API method: in the official client's list and/or the 2020 OpenAPI document. */
export type SlackSpecMethod = SpecMethod & {
  inClient: boolean
  description: string
  /** Scope named by the OpenAPI document's token parameter, if any. */
  scopes: string
  parameters: Readonly<Record<string, { type: string; required?: boolean; description: string }>>
}
