import { inProcessRequest, type InProcessInit } from './request.ts'
import type { Answer } from './response.ts'

export { answerInProcess, InProcessResponse, type Answer } from './response.ts'
export { checkInProcessBody } from './body.ts'
export { isInProcessRequest, type InProcessInit } from './request.ts'

/** The two ways into a Hono app this module uses. */
type App = {
  fetch(request: Request): Response | Promise<Response>
  request(input: string, init?: RequestInit): Response | Promise<Response>
}

/**
 * `app.request(input, init)` without undici on the common path (docs/decisions/0295): a method, headers and a
 * string body go in as an in-process request, and a text answer comes back as an `InProcessResponse`. A call
 * this path does not serve exactly (see `inProcessRequest`) goes through `app.request` itself.
 */
export async function requestInProcess(app: App, input: string, init?: InProcessInit): Promise<Answer> {
  const request = inProcessRequest(input, init)
  if (!request) return app.request(input, init as RequestInit)
  return (await app.fetch(request as unknown as Request)) as Answer
}
