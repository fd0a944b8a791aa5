import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'

describe('chat.postMessage', () => {
  it('posts a message that conversations.history returns first', async () => {
    const w = slackWorld()
    const general = await w.channel('general')
    const r = await w.api('chat.postMessage', { channel: general, text: 'hello <@U1>' })
    expect(r.ok).toBe(true)
    const h = await w.api('conversations.history', { channel: general, limit: 1 })
    expect(h.messages[0].ts).toBe(r.ts)
    expect(h.messages[0].text).toBe('hello <@U1>')
  })
})
