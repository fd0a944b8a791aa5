/** A small two-company world for Gmail tests: two colleagues, one outside customer thread with an invoice. */
export const gmailSeed = {
  name: 'gmail-test',
  now: '2026-03-10T15:00:00Z',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann Lee', timeZone: 'America/New_York' },
    { id: 'ben', email: 'ben@example.com', name: 'Ben Ode', timeZone: 'Europe/Berlin' },
  ],
  gmail: {
    labels: [{ user: 'ann', name: 'Clients/Acme' }],
    messages: [
      {
        from: 'Priya Raman <priya@acme.test>',
        to: ['ann'],
        subject: 'Invoice 1042',
        text: 'Hi Ann, could you confirm invoice 1042 was paid?',
        at: '2026-03-02T10:00:00Z',
        thread: 'inv',
        labels: ['Clients/Acme'],
        attachments: [{ filename: 'invoice-1042.pdf', mimeType: 'application/pdf', text: '%PDF-1.4 invoice 1042' }],
      },
      {
        from: 'ann',
        to: ['Priya Raman <priya@acme.test>'],
        subject: 'Re: Invoice 1042',
        text: 'Checking with finance.',
        at: '2026-03-03T10:00:00Z',
        thread: 'inv',
      },
      {
        from: 'ben',
        to: ['ann'],
        subject: 'Team lunch',
        text: 'Friday at noon, the usual place?',
        at: '2026-03-09T12:00:00Z',
        unread: false,
      },
      {
        from: 'IT Helpdesk <helpdesk@phish.test>',
        to: ['ann'],
        subject: 'Password expires today',
        text: 'Click here to keep your password.',
        at: '2026-01-15T08:00:00Z',
        labels: ['SPAM'],
      },
    ],
  },
}

export const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url')
export const rfc822 = (headers: Record<string, string>, body: string) =>
  b64(
    `${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n')}\r\n\r\n${body}`,
  )
