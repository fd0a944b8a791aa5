import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  exportSft,
  filterRecords,
  IGNORE_INDEX,
  readRecords,
  toOpenAI,
  toShareGPT,
  toolsRendered,
  type ChatTokenizer,
} from '../../trainer/export.ts'
import { tokenExamples } from '../../trainer/tokens.ts'
import { taskSplit } from '../../trainer/split.ts'
import { tokenizeChat, tokenizeUrlFor } from '../../trainer/http.ts'
import { main } from '../../trainer/cli.ts'
import type { ChatMessage, RolloutRecord, ToolDef } from '../../trainer/types.ts'
import { fakeModelServer, renderChat, renderMessage } from './support.ts'
import { tempDirs } from '../support/tmp-dirs.ts'

const tempDir = tempDirs()

const tools: ToolDef[] = [
  {
    type: 'function',
    function: {
      name: 'http_request',
      description: 'REST',
      parameters: {
        type: 'object',
        properties: { method: { type: 'string' }, path: { type: 'string' } },
        required: ['method', 'path'],
      },
    },
  },
  {
    type: 'function',
    function: { name: 'done', description: 'Finish', parameters: { type: 'object', properties: {} } },
  },
]
const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: 'Task: label the mail — ünïcödé' },
  {
    role: 'assistant',
    content: 'Looking first.',
    tool_calls: [
      {
        id: 'c1',
        type: 'function',
        function: { name: 'http_request', arguments: '{"method":"GET","path":"/gmail/v1/users/me/labels"}' },
      },
      {
        id: 'c2',
        type: 'function',
        function: { name: 'http_request', arguments: '{"method":"GET","path":"/gmail/v1/users/me/messages"}' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'c1', content: '{"status":200,"body":{"labels":[]}}' },
  { role: 'tool', tool_call_id: 'c2', content: '{"status":200,"body":{"messages":[]}}' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: 'c3',
        type: 'function',
        function: {
          name: 'http_request',
          arguments: '{"method":"POST","path":"/gmail/v1/users/me/labels","body":{"name":"Acme"}}',
        },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'c3', content: '{"status":200,"body":{"id":"Label_1"}}' },
  {
    role: 'assistant',
    content: 'All labelled.',
    tool_calls: [{ id: 'c4', type: 'function', function: { name: 'done', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'c4', content: 'ok' },
]

const record = (
  over: Partial<RolloutRecord> & { reward?: number; passed?: boolean; violations?: number } = {},
): RolloutRecord => {
  const { reward = 1, passed = true, violations = 0, ...rest } = over
  return {
    index: 0,
    source: 'model',
    taskId: 'gmail-x-1',
    family: 'gmail-x',
    sample: 0,
    seed: null,
    modelSeed: null,
    model: 'm',
    toolProfile: 'rest',
    episodeId: 'ep1',
    messages: conversation,
    tools,
    verdict: {
      reward,
      passed,
      violations: Array.from({ length: violations }, () => ({ kind: 'public_share' as const, message: 'shared' })),
      metrics: {},
      checks: [],
    },
    steps: 4,
    turns: 4,
    invalidToolCalls: 0,
    stopReason: 'terminated',
    error: null,
    timings: { totalMs: 1, resetMs: 0, modelMs: 0, stepMs: 0, verifyMs: 0 },
    usage: null,
    ...rest,
  }
}

let llm: Awaited<ReturnType<typeof fakeModelServer>>
beforeAll(async () => {
  llm = await fakeModelServer(() => ({ status: 404 }))
})
afterAll(async () => llm?.close())

describe('filterRecords', () => {
  const rs = [
    record({ taskId: 'ok' }),
    record({ taskId: 'fail', passed: false, reward: 0 }),
    record({ taskId: 'unsafe', violations: 1, reward: -1 }),
    record({ taskId: 'half', reward: 0.5 }),
    record({ taskId: 'noverdict', verdict: null }),
    record({ taskId: 'bad-args', invalidToolCalls: 2 }),
  ]
  it('keeps passed episodes without violations by default and says why the others went', () => {
    const { kept, dropped } = filterRecords(rs)
    expect(kept.map((r) => r.taskId)).toEqual(['ok', 'half', 'bad-args'])
    expect(dropped).toEqual({ 'not passed': 1, 'safety violation': 1, 'no verdict': 1 })
  })
  it("keeps the records of the asked splits (their own split, else the task id's)", () => {
    const split = (id: string) => taskSplit({ id })
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((x) => `t-${x}`)
    const mixed = ids.map((id, i) => record({ taskId: id, index: i }))
    expect(filterRecords(mixed, { splits: ['train'] }).kept.map((r) => r.taskId)).toEqual(
      ids.filter((id) => split(id) === 'train'),
    )
    expect(filterRecords([record({ taskId: 't-a', split: 'test' })], { splits: ['test'] }).kept).toHaveLength(1)
  })

  it('applies a minimum reward, an invalid-call limit, and can keep everything with a verdict', () => {
    expect(filterRecords(rs, { minReward: 0.9, maxInvalidToolCalls: 0 }).kept.map((r) => r.taskId)).toEqual(['ok'])
    expect(filterRecords(rs, { passedOnly: false, noViolations: false }).kept.map((r) => r.taskId)).toEqual([
      'ok',
      'fail',
      'unsafe',
      'half',
      'bad-args',
    ])
  })
})

describe('malformed tool calls', () => {
  const bad = (args: string, name = 'http_request') =>
    record({
      taskId: `bad-${name}-${args}`,
      messages: [
        ...conversation.slice(0, 2),
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'x', type: 'function', function: { name, arguments: args } }],
        },
        { role: 'tool', tool_call_id: 'x', content: 'error' },
        ...conversation.slice(5),
      ],
    })
  const rs = [record({ taskId: 'ok' }), bad('{"method": "GET", "path": '), bad('[1]'), bad('{}', 'rm_rf'), bad('')]
  it('are dropped by default, whatever the rollout counted, and kept on request', () => {
    expect(filterRecords(rs)).toMatchObject({
      kept: [{ taskId: 'ok' }, { taskId: 'bad-http_request-' }],
      dropped: { 'malformed tool calls': 3 },
    })
    expect(filterRecords(rs, { keepMalformedCalls: true }).kept).toHaveLength(5)
  })
})

describe('bad input', () => {
  it('reports lines that are not records, with their line numbers, and reads the rest', () => {
    const dir = tempDir('trainer-export-')
    const p = join(dir, 'r.jsonl')
    writeFileSync(
      p,
      [
        JSON.stringify(record()),
        '{"taskId": "x"',
        '',
        JSON.stringify({ ...record(), messages: [{ role: 'wizard' }] }),
        '[]',
        JSON.stringify(record({ index: 1 })),
      ].join('\n'),
    )
    const bad: Parameters<typeof readRecords>[1] = []
    expect(readRecords(p, bad).map((r) => r.index)).toEqual([0, 1])
    expect(bad.map((b) => [b.line, b.reason.split(':')[0]])).toEqual([
      [2, 'not JSON'],
      [4, 'message 0 has no known role'],
      [5, 'not a JSON object'],
    ])
  })

  it('skips a record one format cannot hold and still writes it in the others', async () => {
    const broken = record({
      index: 1,
      taskId: 'odd',
      messages: conversation
        .slice(0, 2)
        .concat({ role: 'assistant', content: 'one' }, { role: 'assistant', content: 'two' }),
    })
    const throwing: ChatTokenizer = async (m) => {
      if (m.some((x) => x.content === 'two')) throw new Error('token limit')
      return [1, 2, 3].slice(0, m.length)
    }
    const res = await exportSft([record(), broken], { formats: ['openai', 'sharegpt', 'tokens'], tokenize: throwing })
    expect(res.lines.openai).toHaveLength(2)
    expect(res.lines.sharegpt).toHaveLength(1)
    expect(res.skipped.map((s) => [s.format, s.taskId])).toEqual([
      ['sharegpt', 'odd'],
      ['tokens', 'gmail-x-1'],
      ['tokens', 'odd'],
    ])
  })
})

describe('OpenAI chat format', () => {
  it('keeps messages up to the last assistant turn with string arguments, and the tools', () => {
    const line = toOpenAI(record())
    expect(line.tools).toEqual(tools)
    expect(line.messages).toHaveLength(8)
    expect(line.messages.at(-1)).toEqual({
      role: 'assistant',
      content: 'All labelled.',
      tool_calls: [conversation[7]!.role === 'assistant' && conversation[7]!.tool_calls![0]],
    })
    expect(line.messages[2]).toEqual({
      role: 'assistant',
      content: 'Looking first.',
      tool_calls: (conversation[2] as { tool_calls: unknown }).tool_calls,
    })
    expect(line.messages[5]).not.toHaveProperty('content')
    expect(line.messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: '{"status":200,"body":{"labels":[]}}',
    })
  })
})

describe('ShareGPT format', () => {
  it('maps roles to human/gpt/function_call/observation/system and merges parallel calls and their answers', () => {
    const line = toShareGPT(record())
    expect(line.problem).toBeUndefined()
    expect(line.droppedText).toBe(2)
    expect(JSON.parse(line.tools)).toEqual(tools.map((t) => t.function))
    expect(line.conversations).toEqual([
      { from: 'system', value: 'You are an agent.' },
      { from: 'human', value: 'Task: label the mail — ünïcödé' },
      {
        from: 'function_call',
        value: JSON.stringify([
          { name: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/labels' } },
          { name: 'http_request', arguments: { method: 'GET', path: '/gmail/v1/users/me/messages' } },
        ]),
      },
      // Joined as LLaMA-Factory joins parallel tool answers, so the Qwen observation wrapper renders them as the
      // served template renders two tool messages.
      {
        from: 'observation',
        value:
          '{"status":200,"body":{"labels":[]}}\n</tool_response>\n<tool_response>\n{"status":200,"body":{"messages":[]}}',
      },
      {
        from: 'function_call',
        value: JSON.stringify({
          name: 'http_request',
          arguments: { method: 'POST', path: '/gmail/v1/users/me/labels', body: { name: 'Acme' } },
        }),
      },
      { from: 'observation', value: '{"status":200,"body":{"id":"Label_1"}}' },
      { from: 'function_call', value: JSON.stringify({ name: 'done', arguments: {} }) },
    ])
  })

  it('refuses a conversation whose turns do not alternate as LLaMA-Factory needs', () => {
    const twoAnswers = conversation
      .slice(0, 2)
      .concat({ role: 'assistant', content: 'one' }, { role: 'assistant', content: 'two' })
    expect(toShareGPT(record({ messages: twoAnswers })).problem).toContain('alternation')
  })
})

const decode = (ids: number[]) => Buffer.from(ids).toString('utf8')

describe('token export through /tokenize', () => {
  it('tokenizes with the server template and labels exactly the assistant turns', async () => {
    const url = tokenizeUrlFor(llm.baseUrl)
    expect(url).toBe(llm.baseUrl.replace(/\/v1$/, '') + '/tokenize')
    const tokenize: ChatTokenizer = (messages, t, gen) =>
      tokenizeChat(url, { model: 'm', messages, tools: t, addGenerationPrompt: gen })
    const r = record()
    const [out, ...more] = await tokenExamples(toOpenAI(r).messages, r.tools, tokenize)
    expect(more).toEqual([])
    expect(out!.mask).toBe('conversation')
    const msgs = toOpenAI(r).messages as Parameters<typeof renderMessage>[0][]
    if (!out) throw new Error('no example')
    expect(decode(out.input_ids)).toBe(renderChat(msgs, tools, false))
    expect(out.labels).toHaveLength(out.input_ids.length)
    // Each labelled span is one assistant message as the template renders it, after the generation prompt (the
    // `<|assistant|>` header the model is given); nothing else is labelled.
    const assistants = msgs.filter((m) => m.role === 'assistant')
    const body = (m: (typeof msgs)[number]) => renderMessage(m).slice('<|assistant|>'.length)
    expect(out.assistant_spans).toHaveLength(assistants.length)
    out.assistant_spans.forEach(([a, b], k) => {
      expect(decode(out.input_ids.slice(a, b))).toBe(body(assistants[k]!))
      expect(out.labels.slice(a, b)).toEqual(out.input_ids.slice(a, b))
    })
    const labelled = out.labels.filter((x) => x !== IGNORE_INDEX).length
    expect(labelled).toBe(Buffer.byteLength(assistants.map(body).join(''), 'utf8'))
    expect(decode(out.input_ids.slice(0, out.assistant_spans[0]![0]))).toBe(renderChat(msgs.slice(0, 2), tools, true))
    // The server got the tools and both generation-prompt settings.
    const reqs = llm.requests.filter((q) => q.path === '/tokenize')
    expect(reqs.every((q) => JSON.stringify(q.body.tools) === JSON.stringify(tools))).toBe(true)
    expect(new Set(reqs.map((q) => q.body.add_generation_prompt))).toEqual(new Set([true, false]))
  })

  it('skips a record whose chat template is not prefix-stable instead of mislabelling it', async () => {
    // A template that drops the tool calls of earlier assistant turns (as reasoning-stripping templates do).
    const unstable: ChatTokenizer = async (messages, t, gen) => {
      const last = messages.map((m) => m.role).lastIndexOf('assistant')
      const shown = messages.map((m, i) => (m.role === 'assistant' && i !== last ? { ...m, tool_calls: undefined } : m))
      return [...Buffer.from(renderChat(shown as never, t, gen))]
    }
    const rs = [
      record(),
      record({
        index: 1,
        taskId: 'plain',
        messages: conversation.slice(0, 2).concat({ role: 'assistant', content: 'fine' }),
      }),
    ]
    const res = await exportSft(rs, { formats: ['tokens'], tokenize: unstable, mask: 'conversation' })
    expect(res.lines.tokens).toHaveLength(1)
    expect(JSON.parse(res.lines.tokens![0]!).task_id).toBe('plain')
    expect(res.skipped).toEqual([
      { format: 'tokens', taskId: 'gmail-x-1', index: 0, reason: expect.stringContaining('not prefix-stable') },
    ])
    // Neither can per-turn examples: the history itself renders differently once a later turn follows it.
    expect((await exportSft(rs, { formats: ['tokens'], tokenize: unstable, mask: 'per-turn' })).skipped).toHaveLength(1)
  })

  it('turns a record into one example per assistant turn when only the last turn renders differently', async () => {
    // Like Qwen3: the final assistant turn (and only it) gets an empty think block.
    const lastMarked: ChatTokenizer = async (messages, t, gen) => {
      const text = renderChat(messages as never, t, gen)
      const marked =
        !gen && messages.at(-1)?.role === 'assistant'
          ? text.replace(/<\|assistant\|>(?![\s\S]*<\|assistant\|>)/, '<|assistant|><think></think>')
          : text
      return [...Buffer.from(marked)]
    }
    const rs = [
      record(),
      record({
        index: 1,
        taskId: 'plain',
        messages: conversation.slice(0, 2).concat({ role: 'assistant', content: 'fine' }),
      }),
    ]
    expect(
      (await exportSft(rs, { formats: ['tokens'], tokenize: lastMarked, mask: 'conversation' })).skipped,
    ).toHaveLength(1)
    const auto = await exportSft(rs, { formats: ['tokens'], tokenize: lastMarked })
    expect(auto.skipped).toEqual([])
    expect(auto.masks).toEqual({ conversation: 1, perTurn: 3, recordsPerTurn: 1 })
    const turns = auto.lines.tokens!.map((l) => JSON.parse(l)).filter((e) => e.mask === 'per-turn')
    expect(turns.map((e) => e.turn)).toEqual([2, 5, 7])
    // Each example is the prompt the model had at that turn plus the turn as a final turn; only the turn is labelled.
    const msgs = toOpenAI(record()).messages as Parameters<typeof renderMessage>[0][]
    turns.forEach((e, k) => {
      const [[a, b]] = e.assistant_spans
      expect(decode(e.input_ids.slice(0, a))).toBe(renderChat(msgs.slice(0, e.turn), tools, true))
      expect(decode(e.input_ids.slice(a, b))).toBe(
        '<think></think>' + renderMessage(msgs[e.turn]!).slice('<|assistant|>'.length),
      )
      expect(b).toBe(e.input_ids.length)
      expect(e.labels.filter((x: number) => x !== IGNORE_INDEX)).toEqual(e.input_ids.slice(a, b))
      expect(k === 0 || e.turn > turns[k - 1].turn).toBe(true)
    })
  })

  it('writes all three formats from a rollout file with the CLI', async () => {
    const dir = tempDir('trainer-export-')
    const input = join(dir, 'rollouts.jsonl')
    writeFileSync(
      input,
      [
        record(),
        record({ index: 1, taskId: 'failed', passed: false, reward: 0 }),
        record({ index: 2, taskId: 'second' }),
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    )
    const out: string[] = []
    const code = await main(
      [
        'export',
        '--in',
        input,
        '--out-dir',
        join(dir, 'sft'),
        '--format',
        'openai,sharegpt,tokens',
        '--base-url',
        llm.baseUrl,
        '--model',
        'm',
        '--max-length',
        '100000',
      ],
      { out: (s) => out.push(s), err: (s) => out.push(s), env: {} },
    )
    expect(code, out.join('\n')).toBe(0)
    const lines = (f: string) =>
      readFileSync(join(dir, 'sft', f), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    expect(lines('openai.jsonl')).toEqual([toOpenAI(record()), toOpenAI(record({ taskId: 'second' }))])
    expect(lines('sharegpt.jsonl')).toHaveLength(2)
    expect(lines('tokens.jsonl').map((t: { task_id: string }) => t.task_id)).toEqual(['gmail-x-1', 'second'])
    expect(out).toContain('read 3, kept 2, dropped {"not passed":1}')
  })

  it('notices a /tokenize that ignores the tool definitions', async () => {
    const url = tokenizeUrlFor(llm.baseUrl)
    const withTools: ChatTokenizer = (messages, t, gen) =>
      tokenizeChat(url, { messages, tools: t, addGenerationPrompt: gen })
    const ignoring: ChatTokenizer = (messages, _t, gen) => tokenizeChat(url, { messages, addGenerationPrompt: gen })
    expect(await toolsRendered(withTools, record())).toBe(true)
    expect(await toolsRendered(ignoring, record())).toBe(false)
  })

  it('refuses the tokens format without a tokenize endpoint', async () => {
    const err: string[] = []
    const dir = tempDir('trainer-export-')
    writeFileSync(join(dir, 'r.jsonl'), JSON.stringify(record()) + '\n')
    expect(
      await main(['export', '--in', join(dir, 'r.jsonl'), '--out-dir', dir, '--format', 'tokens'], {
        out: () => undefined,
        err: (s) => err.push(s),
        env: {},
      }),
    ).toBe(1)
    expect(err.join()).toContain('needs --tokenizer DIR (offline) or --tokenize-url/--base-url')
  })
})
