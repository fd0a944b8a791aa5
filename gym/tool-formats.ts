import type { ToolDef } from './tools.ts'
import { strictSchema } from './tool-schema.ts'

/** Tool list formats of the model APIs agents are trained and served with. */
export const TOOL_FORMATS = ['openai', 'openai-strict', 'anthropic', 'gemini', 'mcp'] as const
export type ToolFormat = (typeof TOOL_FORMATS)[number]

/**
 * A tool list in one provider's shape: OpenAI Chat `tools` (with `strict: true` and the strict schema where the
 * schema allows it), Anthropic `tools` (`input_schema`), Gemini `functionDeclarations` (`parametersJsonSchema`,
 * which takes JSON Schema as is) or MCP `tools/list` entries (`inputSchema`).
 */
export function formatTools(tools: readonly ToolDef[], format: ToolFormat): unknown {
  switch (format) {
    case 'openai':
      return tools
    case 'openai-strict':
      return tools.map((t) => {
        const strict = strictSchema(t.function.parameters)
        return strict ? { type: 'function', function: { ...t.function, parameters: strict, strict: true } } : t
      })
    case 'anthropic':
      return tools.map((t) => ({
        name: t.function.name,
        description: t.function.description,
        input_schema: t.function.parameters,
      }))
    case 'gemini':
      return [
        {
          functionDeclarations: tools.map((t) => ({
            name: t.function.name,
            description: t.function.description,
            parametersJsonSchema: t.function.parameters,
          })),
        },
      ]
    case 'mcp':
      return tools.map((t) => ({
        name: t.function.name,
        description: t.function.description,
        inputSchema: t.function.parameters,
      }))
  }
}
