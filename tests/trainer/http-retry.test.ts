import { afterEach, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:net'
import { GymClient, HttpError } from '../../trainer/http.ts'

// A server that drops the first `drops` connections as soon as a request arrives on them (what a server closing an
// idle keep-alive connection looks like to the client that just sent on it), then answers every request with JSON.
let server: Server | undefined
let seen: string[] = []
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

async function flaky(drops: number): Promise<string> {
  seen = []
  let dropped = 0
  server = createServer((socket) => {
    const drop = dropped++ < drops
    socket.once('data', (chunk) => {
      seen.push(`${drop ? 'dropped' : 'answered'} ${chunk.toString('latin1').split(' ', 2).join(' ')}`)
      if (drop) {
        socket.destroy()
        return
      }
      const body = '{"episodeId":"e1","observation":"","tools":[]}'
      socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`)
    })
  })
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  return `http://127.0.0.1:${port}`
}

describe('GymClient on a connection the server closed', () => {
  it('sends a reset again once, and it gets through', async () => {
    const gym = new GymClient(await flaky(1))
    await expect(gym.reset({ taskId: 't' })).resolves.toMatchObject({ episodeId: 'e1' })
    expect(seen).toEqual(['dropped POST /gym/reset', 'answered POST /gym/reset'])
  })
  it('never sends a step twice: the failure is reported', async () => {
    const gym = new GymClient(await flaky(1))
    const err = await gym.step('e1', 'done', {}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(HttpError)
    expect((err as HttpError).status).toBe(0)
    expect(seen).toEqual(['dropped POST /gym/episodes/e1/step'])
  })
  it('sends a reset again only once', async () => {
    const gym = new GymClient(await flaky(2))
    await expect(gym.reset({ taskId: 't' })).rejects.toBeInstanceOf(HttpError)
    expect(seen).toEqual(['dropped POST /gym/reset', 'dropped POST /gym/reset'])
  })
})
