import { describe, expect, it } from 'vitest'
import { slack } from '../../envs/slack/index.ts'
import { slackWorld } from './helpers.ts'

const TRIGGER = '12345.98765.abcd2358fdea'
const modal = (title: string, extra: Record<string, unknown> = {}) => ({
  type: 'modal',
  title: { type: 'plain_text', text: title },
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Hi' } }],
  ...extra,
})

describe('calls.add', () => {
  it('registers a call with participants, read by calls.info; duplicate ids and bad URLs are refused', async () => {
    const w = slackWorld()
    const bob = await w.uid('bob')
    const r = await w.api(
      'calls.add',
      {
        external_unique_id: 'zoom-1',
        join_url: 'https://zoom.test/j/1',
        title: 'Standup',
        created_by: bob,
        users: [{ slack_id: bob }, { external_id: 'x1', display_name: 'Guest' }],
      },
      w.bot(),
    )
    expect(r.call).toMatchObject({
      id: expect.stringMatching(/^R/),
      title: 'Standup',
      join_url: 'https://zoom.test/j/1',
      users: [{ slack_id: bob }, { external_id: 'x1', display_name: 'Guest' }],
    })
    expect((await w.api('calls.info', { id: r.call.id })).call.external_unique_id).toBe('zoom-1')
    expect(
      (
        await w.api(
          'calls.add',
          { external_unique_id: 'zoom-1', join_url: 'https://zoom.test/j/1', created_by: bob },
          w.bot(),
        )
      ).error,
    ).toBe('duplicate_external_unique_id')
    expect((await w.api('calls.add', { external_unique_id: 'zoom-2', join_url: 'nope' }, w.bot())).error).toBe(
      'invalid_arguments',
    )
    expect(
      (await w.api('calls.add', { external_unique_id: 'zoom-2', join_url: 'https://zoom.test/j/2' }, w.bot())).error,
    ).toBe('invalid_created_by')
    expect(
      (
        await w.api('calls.add', {
          external_unique_id: 'zoom-2',
          join_url: 'https://zoom.test/j/2',
          users: [{ slack_id: 'UNOPE' }],
        })
      ).error,
    ).toBe('invalid_user')
    expect((await w.api('calls.info', { id: 'R0NOPE' })).error).toBe('invalid_call_id')
  })
})

describe('calls.participants.add', () => {
  it('adds and removes participants; calls.update retitles; calls.end ends the call once', async () => {
    const w = slackWorld()
    const [bob, carol] = [await w.uid('bob'), await w.uid('carol')]
    const id = (await w.api('calls.add', { external_unique_id: 'meet-9', join_url: 'https://meet.test/9' }, 'bob')).call
      .id
    expect((await w.api('calls.participants.add', { id, users: [{ slack_id: carol }] }, 'bob')).ok).toBe(true)
    expect((await w.api('calls.participants.add', { id, users: [{ slack_id: carol }] }, 'carol')).error).toBe(
      'invalid_call_id',
    )
    expect((await w.api('calls.info', { id })).call.users).toEqual([{ slack_id: carol }])
    expect((await w.api('calls.participants.remove', { id, users: [{ slack_id: carol }] }, 'bob')).ok).toBe(true)
    expect((await w.api('calls.info', { id })).call.users).toEqual([])
    expect((await w.api('calls.update', { id, title: 'Design review' }, 'bob')).call.title).toBe('Design review')
    expect((await w.api('calls.end', { id, duration: 600 }, 'bob')).ok).toBe(true)
    const info = (await w.api('calls.info', { id })).call
    expect(info.date_end).toBe(info.date_start + 600)
    expect((await w.api('calls.end', { id }, 'bob')).error).toBe('already_ended')
    expect((await w.api('calls.participants.add', { id, users: [{ slack_id: bob }] }, 'bob')).error).toBe(
      'already_ended',
    )
  })
})

describe('views.open', () => {
  it('opens a modal with a view id and hash; malformed views and triggers are refused', async () => {
    const w = slackWorld()
    const r = await w.api(
      'views.open',
      { trigger_id: TRIGGER, view: modal('Request PTO', { callback_id: 'pto', private_metadata: 'm' }) },
      w.bot(),
    )
    expect(r.view).toMatchObject({
      id: expect.stringMatching(/^V/),
      type: 'modal',
      callback_id: 'pto',
      private_metadata: 'm',
      root_view_id: r.view.id,
      previous_view_id: null,
    })
    expect(r.view.hash).toMatch(/^\d+\.[0-9a-f]{8}$/)
    expect((await w.api('views.open', { trigger_id: 'garbage', view: modal('x') }, w.bot())).error).toBe(
      'invalid_trigger_id',
    )
    const bad = await w.api(
      'views.open',
      { trigger_id: TRIGGER, view: modal('A title that is far too long for Slack') },
      w.bot(),
    )
    expect(bad.error).toBe('invalid_arguments')
    expect(bad.response_metadata.messages[0]).toContain('/view/title/text')
    expect(
      (await w.api('views.open', { trigger_id: TRIGGER, view: { type: 'home', blocks: [] } }, w.bot())).error,
    ).toBe('invalid_arguments')
  })
})

describe('views.update', () => {
  it('updates by view id or external id, refusing a stale hash with hash_conflict', async () => {
    const w = slackWorld()
    const v = (
      await w.api('views.open', { trigger_id: TRIGGER, view: modal('Step 1', { external_id: 'wizard-1' }) }, w.bot())
    ).view
    const u = await w.api(
      'views.update',
      { view_id: v.id, hash: v.hash, view: modal('Step 2', { external_id: 'wizard-1' }) },
      w.bot(),
    )
    expect(u.view.title.text).toBe('Step 2')
    expect(u.view.hash).not.toBe(v.hash)
    expect((await w.api('views.update', { view_id: v.id, hash: v.hash, view: modal('Step 3') }, w.bot())).error).toBe(
      'hash_conflict',
    )
    expect(
      (
        await w.api(
          'views.update',
          { external_id: 'wizard-1', view: modal('Step 3', { external_id: 'wizard-1' }) },
          w.bot(),
        )
      ).view.title.text,
    ).toBe('Step 3')
    expect((await w.api('views.update', { view_id: 'VNOPE', view: modal('x') }, w.bot())).error).toBe('not_found')
    expect(
      (await w.api('views.open', { trigger_id: TRIGGER, view: modal('Again', { external_id: 'wizard-1' }) }, w.bot()))
        .error,
    ).toBe('duplicate_external_id')
  })
})

describe('views.push', () => {
  it('pushes onto the open modal stack up to three views', async () => {
    const w = slackWorld()
    expect((await w.api('views.push', { trigger_id: TRIGGER, view: modal('x') }, w.bot())).error).toBe('not_found')
    const root = (await w.api('views.open', { trigger_id: TRIGGER, view: modal('One') }, w.bot())).view
    const two = (await w.api('views.push', { trigger_id: TRIGGER, view: modal('Two') }, w.bot())).view
    expect(two).toMatchObject({ root_view_id: root.id, previous_view_id: root.id })
    expect((await w.api('views.push', { trigger_id: TRIGGER, view: modal('Three') }, w.bot())).ok).toBe(true)
    expect((await w.api('views.push', { trigger_id: TRIGGER, view: modal('Four') }, w.bot())).error).toBe(
      'push_limit_reached',
    )
  })
})

describe('views.publish', () => {
  it('publishes one App Home per user, updated in place with hash checks', async () => {
    const w = slackWorld()
    const bob = await w.uid('bob')
    const home = { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Your tasks' } }] }
    const first = (await w.api('views.publish', { user_id: bob, view: home }, w.bot())).view
    const second = (await w.api('views.publish', { user_id: bob, view: home, hash: first.hash }, w.bot())).view
    expect(second.id).toBe(first.id)
    expect((await w.api('views.publish', { user_id: bob, view: home, hash: first.hash }, w.bot())).error).toBe(
      'hash_conflict',
    )
    expect((await w.api('views.publish', { user_id: 'UNOPE', view: home }, w.bot())).error).toBe('invalid_arguments')
    const views = slack.dump(w.h.entry.world).entities.views as Record<string, { type: string; user: string }>
    expect(Object.values(views).filter((v) => v.type === 'home')).toEqual([expect.objectContaining({ user: bob })])
  })
})

describe('dialog.open', () => {
  it('records a valid dialog; invalid ones answer validation_errors', async () => {
    const w = slackWorld()
    const dialog = {
      title: 'Expense',
      callback_id: 'exp',
      elements: [{ type: 'text', label: 'Amount', name: 'amount' }],
    }
    expect((await w.api('dialog.open', { trigger_id: TRIGGER, dialog }, w.bot())).ok).toBe(true)
    const bad = await w.api('dialog.open', { trigger_id: TRIGGER, dialog: { ...dialog, elements: [] } }, w.bot())
    expect(bad.error).toBe('validation_errors')
    expect((await w.api('dialog.open', { trigger_id: 'x', dialog }, w.bot())).error).toBe('invalid_trigger')
    expect((await w.api('dialog.open', { trigger_id: TRIGGER }, w.bot())).error).toBe('missing_dialog')
    expect((await w.api('dialog.open', { dialog }, w.bot())).error).toBe('missing_trigger')
    const views = slack.dump(w.h.entry.world).entities.views as Record<
      string,
      { type: string; view: { callback_id: string } }
    >
    expect(Object.values(views).map((v) => [v.type, v.view.callback_id])).toEqual([['dialog', 'exp']])
  })
})

describe('blocks.validate', () => {
  it('accepts valid blocks, messages and views and points at what is wrong otherwise', async () => {
    const w = slackWorld()
    const good = [
      { type: 'header', text: { type: 'plain_text', text: 'Deploy' } },
      { type: 'section', text: { type: 'mrkdwn', text: '*ok*' } },
    ]
    expect((await w.api('blocks.validate', { blocks: good })).ok).toBe(true)
    const bad = await w.api('blocks.validate', {
      blocks: [{ type: 'section' }, { type: 'header', text: { type: 'mrkdwn', text: 'x' } }, { type: 'sparkle' }],
    })
    expect(bad.error).toBe('invalid_blocks')
    expect(bad.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/0', '/1/text/type', '/2/type'])
    expect(
      (await w.api('blocks.validate', { message: { blocks: [{ type: 'actions', elements: [] }] } })).errors[0],
    ).toMatchObject({ pointer: '/blocks/0/elements', code: 'failed_constraint' })
    expect((await w.api('blocks.validate', { view: modal('x'.repeat(30)) })).error).toBe('invalid_view')
    expect((await w.api('blocks.validate', { view: modal('Fine') })).ok).toBe(true)
    expect((await w.api('blocks.validate', { blocks: good, view: modal('Fine') })).error).toBe('invalid_arguments')
    expect((await w.api('blocks.validate', { blocks: '[{' })).errors[0].code).toBe('invalid_json')
  })
})
