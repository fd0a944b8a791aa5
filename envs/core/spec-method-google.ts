import type { SpecMethod } from './spec-method.ts'

/** A discovery parameter, as kept in `methods.gen.ts`. */
export type GoogleSpecParam = {
  location?: string
  type?: string
  format?: string
  required?: boolean
  repeated?: boolean
  enum?: readonly string[]
  default?: string
  description: string
}

/** A discovery method with what tools and docs need beyond routing. */
export type GoogleSpecMethod = SpecMethod & {
  request?: string
  response?: string
  mediaDownload?: boolean
  description: string
  parameters: Readonly<Record<string, GoogleSpecParam>>
}
