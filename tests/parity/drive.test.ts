import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { compareShapes, recorded } from './shape.ts'
import { driveSeed, q } from '../drive/fixtures.ts'

describe('drive parity with recorded responses', () => {
  // The recorded list and get answers were captured with fields=*; compare ours with the same selection.
  const UNMODELLED =
    /files\[\]\.size|^(importFormats|exportFormats|maxImportSizes)\.|thumbnail|Thumbnail|downloadRestrictions|linkShareMetadata|viewedByMeTime|modifiedByMeTime|sharingUser|inheritedPermissionsDisabled|permissionDetails|photoLink|exportLinks|webContentLink|labelInfo|contentRestrictions/
  test('files.list with fields=*', async () => {
    const h = harness(driveSeed)
    const ours = (await h.call('GET', '/drive/v3/files?pageSize=2&fields=*')).body
    const { missing } = compareShapes(ours, recorded('gdrive', 'files_list_default'))
    expect(missing.filter((k) => !UNMODELLED.test(k))).toEqual([])
  })

  test('files.list with a files(...) selection', async () => {
    const h = harness(driveSeed)
    const ours = (await h.call('GET', '/drive/v3/files?fields=files(id,name,mimeType)')).body
    expect(compareShapes(ours, recorded('gdrive', 'files_list_fields_filtered'))).toEqual({ missing: [], extra: [] })
  })

  test('files.get default and fields-filtered answers', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('GET', `/drive/v3/files?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    const ours = (await h.call('GET', `/drive/v3/files/${id}?fields=*`)).body
    expect(
      compareShapes(ours, recorded('gdrive', 'files_get_after_create')).missing.filter((k) => !UNMODELLED.test(k)),
    ).toEqual([])
    expect(Object.keys((await h.call('GET', `/drive/v3/files/${id}`)).body)).toEqual(['kind', 'id', 'name', 'mimeType'])
  })

  test('files.get with all fields covers the keys the real API returns for a file', async () => {
    const h = harness(driveSeed)
    const id = (await h.call('GET', `/drive/v3/files?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    const ours = (await h.call('GET', `/drive/v3/files/${id}?fields=*`)).body
    const { missing } = compareShapes(ours, recorded('gdrive', 'files_get_full'))
    // Thumbnails, download restrictions, link-share metadata and per-user view times are not modelled.
    const modelled = missing.filter((k) => !UNMODELLED.test(k))
    expect(modelled).toEqual([])
  })

  test('a new Google Doc shows its owner the recorded capabilities (labels aside, which we model)', async () => {
    const h = harness(driveSeed)
    const created = await h.call('POST', '/drive/v3/files?fields=capabilities', {
      json: { name: 'Caps', mimeType: 'application/vnd.google-apps.document' },
    })
    const real = (recorded('gdrive', 'files_create_response') as { capabilities: Record<string, boolean> }).capabilities
    const ours = created.body.capabilities as Record<string, boolean>
    const differing = Object.keys(real).filter((k) => ours[k] !== real[k])
    expect(differing).toEqual(['canModifyLabels', 'canReadLabels'])
  })

  test('permissions.list and about.get', async () => {
    const h = harness(driveSeed)
    const perms = (await h.call('GET', '/drive/v3/files/folderProjects0000000001/permissions')).body
    const { missing } = compareShapes(perms, recorded('gdrive', 'permissions_list'), [
      'permissions[].permissionDetails',
      'permissions[].photoLink',
    ])
    expect(missing).toEqual([])
    const about = (await h.call('GET', '/drive/v3/about?fields=*')).body
    expect(
      compareShapes(about, recorded('gdrive', 'about_get'), ['user.photoLink', 'teamDriveThemes']).missing.filter(
        (k) => !UNMODELLED.test(k),
      ),
    ).toEqual([])
  })

  test('drives.list, files.watch, changes.watch and channels.stop', async () => {
    const h = harness(driveSeed)
    expect(compareShapes((await h.call('GET', '/drive/v3/drives')).body, recorded('gdrive', 'drives_list'))).toEqual({
      missing: [],
      extra: [],
    })
    const id = (await h.call('GET', `/drive/v3/files?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id
    const watch = (
      await h.call('POST', `/drive/v3/files/${id}/watch`, {
        json: { id: 'capture-test-channel', type: 'web_hook', address: 'https://hooks.example.com/x' },
      })
    ).body
    expect(compareShapes(watch, recorded('gdrive', 'files_watch_response'))).toEqual({ missing: [], extra: [] })
    const start = (await h.call('GET', '/drive/v3/changes/startPageToken')).body.startPageToken
    const feed = (
      await h.call('POST', `/drive/v3/changes/watch?pageToken=${start}`, {
        json: { id: 'c', type: 'web_hook', address: 'https://hooks.example.com/x' },
      })
    ).body
    expect(compareShapes(feed, recorded('gdrive', 'changes_watch_response'))).toEqual({ missing: [], extra: [] })
    expect(
      (await h.call('POST', '/drive/v3/channels/stop', { json: { id: 'c', resourceId: feed.resourceId } })).status,
    ).toBe((recorded('gdrive', 'channels_stop_response') as { status: number }).status)
  })

  test('error bodies', async () => {
    const h = harness(driveSeed)
    const ours = (await h.call('GET', '/drive/v3/files/1missingmissingmissingmissing00')).body
    const real = recorded('gdrive', 'error_file_not_found') as { error: { errors: unknown[] } }
    expect(compareShapes(ours, real)).toEqual({ missing: [], extra: [] })
  })
})
