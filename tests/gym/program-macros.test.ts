import { describe, expect, it } from 'vitest'
import { expandMacros, fill } from '../../gym/program-grammar.ts'

const mail = (subject: string) => ({
  $rfc822: {
    from: 'ann@example.com',
    to: 'ben@example.com',
    subject,
    text: 'See attached.',
    attachments: [{ filename: 'a.csv', contentType: 'text/csv', content: 'x,y\n1,2\n' }],
  },
})
const decoded = async (v: unknown) => Buffer.from((await expandMacros(v)) as string, 'base64url').toString('latin1')

describe('$rfc822 macro', () => {
  it('composes the same bytes for the same message, with no Date or Message-ID for the server to stamp', async () => {
    const a = await decoded(mail('Invoice'))
    await new Promise((r) => setTimeout(r, 1_100))
    expect(await decoded(mail('Invoice'))).toBe(a)
    const head = a.slice(0, a.indexOf('\r\n\r\n'))
    expect(head).not.toMatch(/^(date|message-id):/im)
    expect(head).toMatch(/^Subject: Invoice$/m)
    expect(a).toContain('a.csv')
    expect(await decoded(mail('Other'))).not.toBe(a)
  })

  it('decodes an attachment given as base64, so binary bytes arrive intact', async () => {
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x80, 0x0a])
    const raw = await decoded({
      $rfc822: {
        from: 'ann@example.com',
        to: 'ben@example.com',
        subject: 'Bytes',
        text: 'x',
        attachments: [
          { filename: 'a.pdf', contentType: 'application/pdf', content: bytes.toString('base64'), encoding: 'base64' },
        ],
      },
    })
    const part = raw.slice(raw.indexOf('filename=a.pdf'))
    const body = part.slice(part.indexOf('\r\n\r\n') + 4, part.indexOf('\r\n--'))
    expect(Buffer.from(body.replace(/\s+/g, ''), 'base64')).toEqual(bytes)
  })
})

describe('expandMacros without a macro', () => {
  it('gives a copy equal to its input, sharing no array or object with it', async () => {
    const args = { method: 'POST', path: '/x', body: { requests: [{ a: [1, 'two', null, true] }, { b: { c: 'd' } }] } }
    const out = (await expandMacros(args)) as typeof args
    expect(out).toEqual(args)
    expect(out).not.toBe(args)
    expect(out.body).not.toBe(args.body)
    expect(out.body.requests).not.toBe(args.body.requests)
    expect(out.body.requests[0]!.a).not.toBe(args.body.requests[0]!.a)
    expect(await expandMacros('plain')).toBe('plain')
    expect(await expandMacros(null)).toBe(null)
  })

  it('still expands a macro nested in arrays and objects, copying its siblings', async () => {
    const args = { body: { parts: [{ keep: [1] }, { raw: mail('Deep') }] } }
    const out = (await expandMacros(args)) as { body: { parts: [{ keep: number[] }, { raw: string }] } }
    expect(out.body.parts[0]).toEqual({ keep: [1] })
    expect(out.body.parts[0].keep).not.toBe(args.body.parts[0]!.keep)
    expect(out.body.parts[1].raw).toBe(await expandMacros(mail('Deep')))
    expect(Buffer.from(out.body.parts[1].raw, 'base64url').toString('latin1')).toMatch(/^Subject: Deep$/m)
  })
})

describe('fill', () => {
  const vars = { id: 'm1', n: 7, ids: ['a', 'b'], user: { email: 'ann@example.com' } }
  it('returns strings without a binding as they are, braces and all', () => {
    for (const s of ['', 'plain text', '{single}', '{ {id} }', 'a {{ b', '}}id{{', '{{}}', '{{ id }}']) {
      expect(fill(s, vars)).toBe(s)
    }
  })

  it("fills whole and inline bindings, keeping a whole binding's type, inside arrays and objects", () => {
    expect(fill('{{n}}', vars)).toBe(7)
    expect(fill('{{n-1}}', vars)).toBe(6)
    expect(fill('id={{id}}, to {{user.email}}, second {{ids.1}}, none {{missing}}.', vars)).toBe(
      'id=m1, to ann@example.com, second b, none .',
    )
    expect(fill({ q: ['{{ids.0}}', 'x'], body: { to: '{{user.email}}', raw: 'no binding' } }, vars)).toEqual({
      q: ['a', 'x'],
      body: { to: 'ann@example.com', raw: 'no binding' },
    })
  })
})
