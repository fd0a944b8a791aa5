import { describe, expect, it } from 'vitest'
import { slackWorld } from './helpers.ts'

async function groups(w: ReturnType<typeof slackWorld>) {
  const eng = (await w.api('usergroups.list')).usergroups[0].id as string
  const sales = (await w.api('usergroups.create', { name: 'Sales', handle: 'sales-team' })).usergroup.id as string
  await w.api('usergroups.users.update', { usergroup: sales, users: await w.uid('dan') })
  return { eng, sales }
}

describe('admin.barriers.create', () => {
  it('blocks DMs between the groups (new and existing) until admin.barriers.delete removes it', async () => {
    const w = slackWorld()
    const { eng, sales } = await groups(w)
    const [bob, dan] = [await w.uid('bob'), await w.uid('dan')]
    const dm = (await w.api('conversations.open', { users: dan }, 'bob')).channel.id
    const r = await w.api('admin.barriers.create', {
      primary_usergroup_id: eng,
      barriered_from_usergroup_ids: sales,
      restricted_subjects: 'im,mpim,call',
    })
    expect(r.barrier).toMatchObject({
      id: expect.stringMatching(/^Eb/),
      primary_usergroup: { id: eng, name: 'Engineering' },
      barriered_from_usergroups: [{ id: sales, name: 'Sales' }],
    })
    expect((await w.api('chat.postMessage', { channel: dm, text: 'hi' }, 'bob')).error).toBe('restricted_action')
    expect((await w.api('chat.postMessage', { channel: bob, text: 'hi' }, 'dan')).error).toBe('restricted_action')
    expect((await w.api('conversations.open', { users: `${dan},${await w.uid('erin')}` }, 'bob')).error).toBe(
      'restricted_action',
    )
    expect((await w.api('chat.postMessage', { channel: dm, text: 'hi' }, 'alice')).error).toBe('channel_not_found')
    expect(
      (
        await w.api('admin.barriers.create', {
          primary_usergroup_id: eng,
          barriered_from_usergroup_ids: sales,
          restricted_subjects: 'im',
        })
      ).error,
    ).toBe('invalid_restricted_subjects')
    expect(
      (
        await w.api('admin.barriers.create', {
          primary_usergroup_id: eng,
          barriered_from_usergroup_ids: sales,
          restricted_subjects: 'im,mpim,call',
        })
      ).error,
    ).toBe('barrier_already_exists')
    expect(
      (
        await w.api('admin.barriers.create', {
          primary_usergroup_id: 'SNOPE',
          barriered_from_usergroup_ids: sales,
          restricted_subjects: 'im,mpim,call',
        })
      ).error,
    ).toBe('invalid_usergroup')
    expect((await w.api('admin.barriers.list')).barriers.map((b: { id: string }) => b.id)).toEqual([r.barrier.id])
    expect((await w.api('admin.barriers.delete', { barrier_id: r.barrier.id })).ok).toBe(true)
    expect((await w.api('chat.postMessage', { channel: dm, text: 'hi again' }, 'bob')).ok).toBe(true)
    expect((await w.api('admin.barriers.delete', { barrier_id: r.barrier.id })).error).toBe('barrier_not_found')
    expect((await w.api('admin.barriers.list', {}, 'bob')).error).toBe('missing_scope')
  })

  it('admin.barriers.update swaps the groups', async () => {
    const w = slackWorld()
    const { eng, sales } = await groups(w)
    const id = (
      await w.api(
        'admin.barriers.create',
        { primary_usergroup_id: eng, barriered_from_usergroup_ids: sales, restricted_subjects: ['im', 'mpim', 'call'] },
        'alice',
        true,
      )
    ).barrier.id
    const u = await w.api('admin.barriers.update', {
      barrier_id: id,
      primary_usergroup_id: sales,
      barriered_from_usergroup_ids: eng,
      restricted_subjects: 'im,mpim,call',
    })
    expect(u.barrier.primary_usergroup.id).toBe(sales)
    expect(
      (
        await w.api('admin.barriers.update', {
          barrier_id: 'EbNOPE',
          primary_usergroup_id: sales,
          barriered_from_usergroup_ids: eng,
          restricted_subjects: 'im,mpim,call',
        })
      ).error,
    ).toBe('barrier_not_found')
  })
})

describe('admin.auth.policy.assignEntities', () => {
  it('assigns members to the email_password policy, read by getEntities and undone by removeEntities', async () => {
    const w = slackWorld()
    const [bob, carol] = [await w.uid('bob'), await w.uid('carol')]
    const policy = { policy_name: 'email_password', entity_type: 'USER' }
    expect(
      (await w.api('admin.auth.policy.assignEntities', { ...policy, entity_ids: `${bob},${carol}` }))
        .entity_total_count,
    ).toBe(2)
    const got = await w.api('admin.auth.policy.getEntities', policy)
    expect(got.entities.map((e: { entity_id: string }) => e.entity_id)).toEqual([bob, carol])
    expect((await w.api('admin.auth.policy.removeEntities', { ...policy, entity_ids: bob })).entity_total_count).toBe(1)
    expect(
      (await w.api('admin.auth.policy.assignEntities', { policy_name: 'sso', entity_type: 'USER', entity_ids: bob }))
        .error,
    ).toBe('invalid_policy_name')
    expect((await w.api('admin.auth.policy.assignEntities', { ...policy, entity_ids: 'UNOPE' })).error).toBe(
      'invalid_entity_id',
    )
    expect((await w.api('admin.auth.policy.getEntities', policy, 'bob')).error).toBe('missing_scope')
  })
})
