import { describe, expect, test } from 'vitest'
import { harness } from '../../envs/core/testing/harness.ts'
import { compareShapes, recorded } from '../parity/shape.ts'
import { driveSeed, q } from './fixtures.ts'

const F = '/drive/v3/files'
const fields = 'fields=*'

async function setup() {
  const h = harness(driveSeed)
  const id = (await h.call('GET', `${F}?q=${q("name = 'Atlas plan.txt'")}`)).body.files[0].id as string
  return { h, id }
}

describe('drive.comments.create', () => {
  test('needs fields, commenter access, and content; drive.comments.list and drive.comments.get read it back', async () => {
    const { h, id } = await setup()
    expect((await h.call('POST', `${F}/${id}/comments`, { json: { content: 'x' } })).status).toBe(400)
    const made = await h.call('POST', `${F}/${id}/comments?${fields}`, {
      token: h.google('ben'),
      json: { content: 'Is the <date> right?', anchor: 'kix.1' },
    })
    expect(made.body).toMatchObject({
      kind: 'drive#comment',
      content: 'Is the <date> right?',
      htmlContent: 'Is the &lt;date&gt; right?',
      author: { displayName: 'Ben Ode', me: true },
      replies: [],
    })
    expect(
      compareShapes(made.body, recorded('gdrive', 'comments_create_response'), [
        'anchor',
        'author.emailAddress',
        'author.photoLink',
      ]),
    ).toEqual({ missing: [], extra: [] })
    expect(made.body).not.toHaveProperty('resolved')
    expect(
      (await h.call('POST', `${F}/${id}/comments?${fields}`, { token: h.google('cy'), json: { content: 'hi' } }))
        .status,
    ).toBe(404)
    expect((await h.call('POST', `${F}/${id}/comments?${fields}`, { json: { content: '   ' } })).status).toBe(400)
    const list = await h.call('GET', `${F}/${id}/comments?${fields}`)
    expect(list.body.comments.map((x: { id: string }) => x.id)).toEqual([made.body.id])
    expect((await h.call('GET', `${F}/${id}/comments/${made.body.id}?${fields}`)).body.author.me).toBe(false)
  })
})

describe('drive.comments.update', () => {
  test('only the author edits; drive.comments.delete marks deleted', async () => {
    const { h, id } = await setup()
    const made = (await h.call('POST', `${F}/${id}/comments?${fields}`, { json: { content: 'first' } })).body
    expect(
      (
        await h.call('PATCH', `${F}/${id}/comments/${made.id}?${fields}`, {
          token: h.google('ben'),
          json: { content: 'hijack' },
        })
      ).status,
    ).toBe(403)
    expect(
      (await h.call('PATCH', `${F}/${id}/comments/${made.id}?${fields}`, { json: { content: 'second' } })).body.content,
    ).toBe('second')
    expect((await h.call('DELETE', `${F}/${id}/comments/${made.id}`)).status).toBe(204)
    expect((await h.call('GET', `${F}/${id}/comments?${fields}`)).body.comments).toEqual([])
    expect((await h.call('GET', `${F}/${id}/comments?includeDeleted=true&${fields}`)).body.comments[0].deleted).toBe(
      true,
    )
  })
})

describe('drive.replies.create', () => {
  test('replies and resolves a comment (drive.replies.list, drive.replies.get, drive.replies.update, drive.replies.delete)', async () => {
    const { h, id } = await setup()
    const comment = (await h.call('POST', `${F}/${id}/comments?${fields}`, { json: { content: 'Check totals' } })).body
    const reply = await h.call('POST', `${F}/${id}/comments/${comment.id}/replies?${fields}`, {
      token: h.google('ben'),
      json: { content: 'Fixed', action: 'resolve' },
    })
    expect(reply.body).toMatchObject({ kind: 'drive#reply', content: 'Fixed', action: 'resolve' })
    expect((await h.call('GET', `${F}/${id}/comments/${comment.id}?${fields}`)).body.resolved).toBe(true)
    expect((await h.call('GET', `${F}/${id}/comments/${comment.id}/replies?${fields}`)).body.replies).toHaveLength(1)
    expect(
      (await h.call('GET', `${F}/${id}/comments/${comment.id}/replies/${reply.body.id}?${fields}`)).body.content,
    ).toBe('Fixed')
    expect(
      (
        await h.call('PATCH', `${F}/${id}/comments/${comment.id}/replies/${reply.body.id}?${fields}`, {
          token: h.google('ben'),
          json: { content: 'Fixed totals' },
        })
      ).body.content,
    ).toBe('Fixed totals')
    expect(
      (await h.call('DELETE', `${F}/${id}/comments/${comment.id}/replies/${reply.body.id}`, { token: h.google('ben') }))
        .status,
    ).toBe(204)
    expect(
      (
        await h.call('POST', `${F}/${id}/comments/${comment.id}/replies?${fields}`, {
          json: { content: 'x', action: 'explode' },
        })
      ).status,
    ).toBe(400)
  })
})
