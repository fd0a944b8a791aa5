import { expect, test } from 'vitest'
import { createControlApp } from '../../server/control/app.ts'
import { WorldManager } from '../../server/worlds.ts'

// A seed named like an Object.prototype member (constructor, toString) is an unknown seed (400), not a 500 or a
// confusing error from calling Object as a seed generator.

test.each(['constructor', 'toString', '__proto__'])('POST /worlds {seed: %s} is 400 unknown seed', async (seed) => {
  const worlds = new WorldManager()
  const control = createControlApp(worlds, { adminToken: 'admin' })
  const res = await control.request('/worlds', {
    method: 'POST',
    headers: { authorization: 'Bearer admin', 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'w1', seed }),
  })
  expect(res.status).toBe(400)
  const body = (await res.json()) as { issues: { path: string; message: string }[] }
  expect(body.issues).toEqual([{ path: 'seed', message: `unknown seed "${seed}" (known: demo, large, empty)` }])
  worlds.close()
})
