/**
 * Offline chat templates and tokens: a model's own chat template (Jinja, from its tokenizer_config.json or
 * chat_template.jinja) rendered with @huggingface/jinja, and its tokenizer.json run with @huggingface/tokenizers.
 * Nothing here needs a model server; vLLM's `POST /tokenize` (trainer/http.ts) stays the other way.
 *
 * Messages are prepared the way vLLM prepares an OpenAI request before it applies the template, so that the
 * offline tokens are the tokens the served model saw: `content: null` becomes "", and tool-call `arguments` that
 * are a JSON object string become that object (templates print them with `tojson`).
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Template } from '@huggingface/jinja'
import { Tokenizer } from '@huggingface/tokenizers'
import type { ChatTokenizer } from './export.ts'
import type { ToolDef } from './types.ts'

/** The raw files of a tokenizer (kept as text so their hashes are the files' hashes). */
export type TokenizerFiles = {
  /** tokenizer.json */
  tokenizerJson: string
  /** tokenizer_config.json */
  tokenizerConfig: string
  /** The chat template when it is not (only) in tokenizer_config.json: chat_template.jinja or --chat-template. */
  chatTemplate?: string
  /** Where the files came from (a directory or a package name), for the manifest. */
  source: string
}

export const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex')

/**
 * Reads a tokenizer directory as Hugging Face stores one (a model snapshot): tokenizer.json, tokenizer_config.json
 * and, where present, chat_template.jinja (newer repositories keep the template there). `templateFile` wins.
 */
export function readTokenizerDir(dir: string, templateFile?: string): TokenizerFiles {
  const need = (f: string) => {
    const p = join(dir, f)
    if (!existsSync(p)) {
      throw new Error(`no ${f} in ${dir} (a tokenizer directory holds tokenizer.json and tokenizer_config.json)`)
    }
    return readFileSync(p, 'utf8')
  }
  const jinja = join(dir, 'chat_template.jinja')
  const chatTemplate = templateFile
    ? readFileSync(templateFile, 'utf8')
    : existsSync(jinja)
      ? readFileSync(jinja, 'utf8')
      : undefined
  return {
    tokenizerJson: need('tokenizer.json'),
    tokenizerConfig: need('tokenizer_config.json'),
    chatTemplate,
    source: dir,
  }
}

type Json = Record<string, unknown>

/** tokenizer_config's `chat_template`: a string, or named templates (`default`, `tool_use`) as Hugging Face allows. */
function pickTemplate(cfg: Json, override: string | undefined, withTools: boolean): string {
  if (override) return override
  const t = cfg.chat_template
  if (typeof t === 'string') return t
  if (Array.isArray(t)) {
    const named = new Map((t as { name: string; template: string }[]).map((x) => [x.name, x.template]))
    const pick = (withTools ? named.get('tool_use') : undefined) ?? named.get('default')
    if (pick) return pick
  }
  throw new Error('the tokenizer has no chat template (tokenizer_config.json chat_template or chat_template.jinja)')
}

const tokenText = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? v
    : v && typeof v === 'object' && typeof (v as Json).content === 'string'
      ? String((v as Json).content)
      : undefined

/** An OpenAI message prepared for a Hugging Face chat template, as vLLM does it (see the file comment). */
export function templateMessage(m: Json): Json {
  const out: Json = { ...m }
  if (out.content === null || out.content === undefined) out.content = ''
  if (Array.isArray(out.tool_calls)) {
    out.tool_calls = (out.tool_calls as Json[]).map((c) => {
      const fn = (c.function ?? {}) as Json
      let args = fn.arguments
      if (typeof args === 'string') {
        try {
          const v = JSON.parse(args || '{}')
          if (v && typeof v === 'object' && !Array.isArray(v)) args = v
        } catch {
          /* a malformed call keeps its text; the exporter drops such records by default */
        }
      }
      return { ...c, function: { ...fn, arguments: args } }
    })
  }
  return out
}

/** A model's chat template and tokenizer, offline. */
export class OfflineChatTokenizer {
  readonly tokenizerHash: string
  readonly templateHash: string
  readonly source: string
  private readonly tok: Tokenizer
  private readonly cfg: Json
  private readonly templates = new Map<string, Template>()
  private readonly specials: Json
  private readonly override: string | undefined

  constructor(
    files: TokenizerFiles,
    private readonly kwargs: Record<string, unknown> = {},
  ) {
    this.cfg = JSON.parse(files.tokenizerConfig) as Json
    this.tok = new Tokenizer(JSON.parse(files.tokenizerJson), this.cfg)
    this.source = files.source
    this.tokenizerHash = sha256(files.tokenizerJson)
    this.override = files.chatTemplate
    this.templateHash = sha256(pickTemplate(this.cfg, files.chatTemplate, true))
    this.specials = {}
    for (const k of ['bos_token', 'eos_token', 'unk_token', 'pad_token']) {
      this.specials[k] = tokenText(this.cfg[k]) ?? ''
    }
  }

  private template(withTools: boolean): Template {
    const text = pickTemplate(this.cfg, this.override, withTools)
    let t = this.templates.get(text)
    if (!t) this.templates.set(text, (t = new Template(text)))
    return t
  }

  /** The template's text for these messages (vLLM's `apply_chat_template(..., tokenize=False)`). */
  render(messages: Json[], tools: ToolDef[], addGenerationPrompt: boolean): string {
    return this.template(tools.length > 0).render({
      ...this.specials,
      ...this.kwargs,
      messages: messages.map(templateMessage),
      ...(tools.length ? { tools } : {}),
      add_generation_prompt: addGenerationPrompt,
    })
  }

  /** Token ids of a text; special tokens written in it (e.g. `<|im_start|>`) are recognised, none are added. */
  encode(text: string): number[] {
    return this.tok.encode(text, { add_special_tokens: false }).ids
  }

  decode(ids: number[]): string {
    return this.tok.decode(ids, { skip_special_tokens: false })
  }

  /** The exporter's tokenizer interface. */
  readonly tokenize: ChatTokenizer = async (messages, tools, addGenerationPrompt) =>
    this.encode(this.render(messages, tools, addGenerationPrompt))
}
