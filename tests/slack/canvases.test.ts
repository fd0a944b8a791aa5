import { describe, expect, it } from 'vitest'
import { slack } from '../../envs/slack/index.ts'
import { slackWorld } from './helpers.ts'

const md = (markdown: string) => ({ type: 'markdown', markdown })
const canvasOf = (w: ReturnType<typeof slackWorld>, id: string) =>
  (
    slack.dump(w.h.entry.world).entities.canvases as Record<
      string,
      { title: string; markdown: string; access: Record<string, string> }
    >
  )[id]!

describe('canvases.create', () => {
  it('creates a canvas from markdown split into sections; bad content is invalid_arguments', async () => {
    const w = slackWorld()
    const r = await w.api('canvases.create', {
      title: 'Onboarding',
      document_content: md('# Welcome\nRead this first.\n\n## Week one\n- Laptop\n- Accounts'),
    })
    expect(r.canvas_id).toMatch(/^F/)
    expect(canvasOf(w, r.canvas_id)).toMatchObject({
      title: 'Onboarding',
      markdown: '# Welcome\nRead this first.\n## Week one\n- Laptop\n- Accounts',
    })
    expect(
      (await w.api('canvases.create', { title: 'x', document_content: { type: 'html', markdown: 'x' } })).error,
    ).toBe('invalid_arguments')
    expect(
      (await w.api('canvases.create', { title: 'x', channel_id: await w.channel('leadership') }, 'carol')).error,
    ).toBe('channel_not_found')
    expect((await w.api('canvases.create', { title: 'Bot notes' }, w.bot())).canvas_id).toMatch(/^F/)
  })
})

describe('canvases.sections.lookup', () => {
  it('finds sections by heading level and text; canvases.edit inserts after one, replaces, deletes and renames', async () => {
    const w = slackWorld()
    const id = (
      await w.api('canvases.create', { title: 'Plan', document_content: md('# Goals\nShip v2\n## Risks\nHiring') })
    ).canvas_id
    const h2 = (await w.api('canvases.sections.lookup', { canvas_id: id, criteria: { section_types: ['h2'] } }))
      .sections
    expect(h2).toHaveLength(1)
    expect(
      (await w.api('canvases.sections.lookup', { canvas_id: id, criteria: { section_types: ['any_header'] } }))
        .sections,
    ).toHaveLength(2)
    expect(
      (await w.api('canvases.sections.lookup', { canvas_id: id, criteria: { contains_text: 'ship' } })).sections,
    ).toHaveLength(1)
    expect((await w.api('canvases.sections.lookup', { canvas_id: id, criteria: {} })).error).toBe('invalid_arguments')
    expect(
      (
        await w.api('canvases.edit', {
          canvas_id: id,
          changes: [{ operation: 'insert_after', section_id: h2[0].id, document_content: md('Budget') }],
        })
      ).ok,
    ).toBe(true)
    expect(canvasOf(w, id).markdown).toBe('# Goals\nShip v2\n## Risks\nBudget\nHiring')
    const ship = (await w.api('canvases.sections.lookup', { canvas_id: id, criteria: { contains_text: 'Ship v2' } }))
      .sections[0].id
    await w.api('canvases.edit', {
      canvas_id: id,
      changes: [{ operation: 'replace', section_id: ship, document_content: md('Ship v3') }],
    })
    await w.api('canvases.edit', {
      canvas_id: id,
      changes: [
        { operation: 'delete', section_id: h2[0].id },
        { operation: 'insert_at_start', document_content: md('Draft') },
      ],
    })
    await w.api('canvases.edit', { canvas_id: id, changes: [{ operation: 'rename', title_content: md('Plan 2027') }] })
    expect(canvasOf(w, id)).toMatchObject({ title: 'Plan 2027', markdown: 'Draft\n# Goals\nShip v3\nBudget\nHiring' })
    const failed = await w.api('canvases.edit', {
      canvas_id: id,
      changes: [
        { operation: 'insert_at_end', document_content: md('x') },
        { operation: 'delete', section_id: 'temp:C:nope' },
      ],
    })
    expect(failed.error).toBe('canvas_editing_failed')
    expect(canvasOf(w, id).markdown).toBe('Draft\n# Goals\nShip v3\nBudget\nHiring')
    expect((await w.api('canvases.edit', { canvas_id: id, changes: [{ operation: 'explode' }] })).error).toBe(
      'invalid_arguments',
    )
  })
})

describe('canvases.access.set', () => {
  it('shares with a user for reading or writing; others cannot see it; canvases.access.delete revokes', async () => {
    const w = slackWorld()
    const id = (await w.api('canvases.create', { title: 'Secret', document_content: md('x') })).canvas_id
    const bob = await w.uid('bob')
    const edit = { canvas_id: id, changes: [{ operation: 'insert_at_end', document_content: md('bob was here') }] }
    expect((await w.api('canvases.edit', edit, 'bob')).error).toBe('canvas_not_found')
    expect((await w.api('canvases.access.set', { canvas_id: id, access_level: 'read', user_ids: bob })).ok).toBe(true)
    expect((await w.api('canvases.edit', edit, 'bob')).error).toBe('access_denied')
    await w.api('canvases.access.set', { canvas_id: id, access_level: 'write', user_ids: bob })
    expect((await w.api('canvases.edit', edit, 'bob')).ok).toBe(true)
    expect(
      (await w.api('canvases.access.set', { canvas_id: id, access_level: 'read', user_ids: bob }, 'bob')).error,
    ).toBe('access_denied')
    expect(
      (
        await w.api('canvases.access.set', {
          canvas_id: id,
          access_level: 'read',
          user_ids: bob,
          channel_ids: await w.channel('general'),
        })
      ).error,
    ).toBe('invalid_arguments')
    expect((await w.api('canvases.access.delete', { canvas_id: id, user_ids: bob })).ok).toBe(true)
    expect((await w.api('canvases.edit', edit, 'bob')).error).toBe('canvas_not_found')
    const sales = await w.channel('sales')
    await w.api('canvases.access.set', { canvas_id: id, access_level: 'write', channel_ids: sales })
    expect((await w.api('canvases.edit', edit, 'dan')).ok).toBe(true)
    expect(canvasOf(w, id).access).toEqual({ [sales]: 'write' })
  })
})

describe('canvases.delete', () => {
  it('lets only the owner delete', async () => {
    const w = slackWorld()
    const id = (await w.api('canvases.create', { title: 'Tmp', channel_id: await w.channel('general') })).canvas_id
    expect((await w.api('canvases.delete', { canvas_id: id }, 'bob')).error).toBe('access_denied')
    expect((await w.api('canvases.delete', { canvas_id: id })).ok).toBe(true)
    expect((await w.api('canvases.delete', { canvas_id: id })).error).toBe('canvas_not_found')
  })
})

describe('conversations.canvases.create', () => {
  it('creates the one channel canvas that channel members can edit', async () => {
    const w = slackWorld()
    const eng = await w.channel('engineering')
    const id = (
      await w.api('conversations.canvases.create', { channel_id: eng, document_content: md('# On-call') }, 'bob')
    ).canvas_id
    expect(id).toMatch(/^F/)
    expect((await w.api('conversations.canvases.create', { channel_id: eng }, 'bob')).error).toBe(
      'channel_canvas_already_exists',
    )
    expect(
      (
        await w.api(
          'canvases.edit',
          { canvas_id: id, changes: [{ operation: 'insert_at_end', document_content: md('Carol this week') }] },
          'carol',
        )
      ).ok,
    ).toBe(true)
    expect(
      (
        await w.api(
          'canvases.edit',
          { canvas_id: id, changes: [{ operation: 'insert_at_end', document_content: md('x') }] },
          'dan',
        )
      ).error,
    ).toBe('canvas_not_found')
    expect((await w.api('conversations.canvases.create', { channel_id: await w.channel('sales') }, 'bob')).error).toBe(
      'not_in_channel',
    )
  })
})
