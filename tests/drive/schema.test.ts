import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { validateAgainst } from '../support/discovery.ts'
import { driveSeed, q } from './fixtures.ts'

// 2xx answers of Drive validate against the discovery schemas (with every field requested).

describe('drive responses match the discovery schemas', () => {
  test('files, permissions and about', async () => {
    const h = harness(driveSeed)
    const list = (await h.call('GET', '/drive/v3/files?fields=*')).body
    const id = (await h.call('GET', `/drive/v3/files?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    const file = (await h.call('GET', `/drive/v3/files/${id}?fields=*`)).body
    const perms = (await h.call('GET', '/drive/v3/files/folderProjects0000000001/permissions')).body
    const about = (await h.call('GET', '/drive/v3/about?fields=*')).body
    const ids = (await h.call('GET', '/drive/v3/files/generateIds?count=2')).body
    const problems = [
      ...validateAgainst('drive', 'FileList', list),
      ...validateAgainst('drive', 'File', file),
      ...validateAgainst('drive', 'PermissionList', perms),
      ...validateAgainst('drive', 'About', about),
      ...validateAgainst('drive', 'GeneratedIds', ids),
    ]
    expect(problems).toEqual([])
    expect(list.files.length).toBeGreaterThan(3)
  })
})
