import { expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'

// Request strings used as lookup keys: a name every JavaScript object inherits (constructor, __proto__, toString)
// is an unknown name with Drive's error, not a 500.

const F = '/drive/v3/files'

test.each(['constructor', '__proto__', 'toString', 'valueOf', 'constructor desc'])('orderBy=%s is 400', async (key) => {
  const h = harness()
  const res = await h.call('GET', `${F}?orderBy=${encodeURIComponent(key)}`)
  expect([res.status, res.body.error.message]).toEqual([400, `Invalid sort order: ${key}`])
  expect((await h.call('GET', `${F}?orderBy=${encodeURIComponent('name desc,modifiedTime')}`)).status).toBe(200)
})
