import type { Action } from './episode.ts'

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v)

/**
 * One tool call in any of the shapes agent frameworks emit, as `{tool, arguments}`:
 * - the gym's own `{tool, arguments}`;
 * - OpenAI Chat `{type: 'function', function: {name, arguments: "<json>"}}` and Responses
 *   `{type: 'function_call', name, arguments: "<json>"}`;
 * - Anthropic `{type: 'tool_use', id, name, input}`;
 * - Gemini `{functionCall: {name, args}}` (a Part) or the bare `{name, args}`;
 * - OpenEnv / MCP `{type: 'call_tool', tool_name, arguments}`.
 * Returns a message saying what is wrong otherwise.
 */
export function parseAction(raw: unknown): Action | string {
  if (!isObj(raw)) return 'action must be an object {tool, arguments}'
  let a: Obj = raw
  if (isObj(a.function)) a = a.function
  else if (isObj(a.functionCall)) a = a.functionCall
  else if (isObj(a.function_call)) a = a.function_call
  const tool = a.tool ?? a.tool_name ?? a.name
  if (typeof tool !== 'string' || !tool) return 'action.tool (or name, tool_name) must be a non-empty string'
  let args: unknown = a.type === 'tool_use' ? a.input : (a.arguments ?? a.args ?? a.input ?? {})
  if (args === undefined || args === null) args = {}
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args || '{}')
    } catch {
      return 'action.arguments is not valid JSON'
    }
  }
  if (!isObj(args)) return 'action.arguments must be an object'
  return { tool, arguments: args }
}
