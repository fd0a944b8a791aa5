import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import type { WebSocket } from 'ws'
import { serveSession } from '../../gym/openenv-ws.ts'
import type { Gym } from '../../gym/index.ts'

/** A connection whose first two writes fail (a reply, then its error report: the socket throws), then work. */
function flakySocket() {
  const ws = new EventEmitter() as EventEmitter & { OPEN: number; readyState: number; sent: string[] }
  Object.assign(ws, { OPEN: 1, readyState: 1, sent: [] as string[] })
  let failures = 2
  Object.assign(ws, {
    send(text: string) {
      if (failures-- > 0) throw new Error('socket write failed')
      ws.sent.push(text)
    },
    close() {},
  })
  return ws
}

describe('OpenEnv WebSocket session queue', () => {
  it('keeps answering after one message\u2019s reply throws, and leaves no rejection unhandled', async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (e: unknown) => unhandled.push(e)
    process.on('unhandledRejection', onUnhandled)
    try {
      const ws = flakySocket()
      // `state` before any reset touches no episode, so the session needs no gym behind it.
      serveSession(ws as unknown as WebSocket, {} as Gym, {})
      ws.emit('message', Buffer.from('{"type":"state"}'))
      ws.emit('message', Buffer.from('{"type":"state"}'))
      await new Promise((resolve) => setTimeout(resolve, 50))
      const replies = ws.sent.map((t) => JSON.parse(t) as { type: string })
      // The failed reply's error report, then the second message's answer.
      expect(replies.map((r) => r.type)).toEqual(['error', 'state'])
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })
})
