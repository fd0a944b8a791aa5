/** Three colleagues and one outsider's shares: a shared folder tree, a link-only folder, a domain-wide file. */
export const driveSeed = {
  name: 'drive-test',
  now: '2026-03-10T15:00:00Z',
  domain: 'example.com',
  users: [
    { id: 'ann', email: 'ann@example.com', name: 'Ann Lee' },
    { id: 'ben', email: 'ben@example.com', name: 'Ben Ode' },
    { id: 'cy', email: 'cy@example.com', name: 'Cy Ray' },
  ],
  drive: {
    files: [
      {
        key: 'proj',
        id: 'folderProjects0000000001',
        name: 'Projects',
        mimeType: 'application/vnd.google-apps.folder',
        owner: 'ann',
        permissions: [{ id: 'perm-ben-kept', type: 'user', role: 'writer', user: 'ben' }],
      },
      { key: 'atlas', name: 'Atlas', mimeType: 'application/vnd.google-apps.folder', owner: 'ann', parent: 'proj' },
      {
        name: 'Atlas budget.txt',
        mimeType: 'text/plain',
        owner: 'ann',
        parent: 'atlas',
        text: 'Budget: 120k. Zephyr vendor quote pending.',
        properties: { team: 'atlas' },
        at: '2026-03-01T10:00:00Z',
      },
      {
        name: 'Atlas plan.txt',
        mimeType: 'text/plain',
        owner: 'ann',
        parent: 'atlas',
        text: 'Plan for Atlas.',
        starred: true,
        at: '2026-03-05T10:00:00Z',
      },
      {
        key: 'press',
        name: 'Press kit',
        mimeType: 'application/vnd.google-apps.folder',
        owner: 'ann',
        permissions: [{ type: 'anyone', role: 'reader' }],
      },
      {
        name: 'Logo.png',
        mimeType: 'image/png',
        owner: 'ann',
        parent: 'press',
        base64: Buffer.from([137, 80, 78, 71, 1, 2, 3]).toString('base64'),
      },
      {
        name: 'Handbook.txt',
        mimeType: 'text/plain',
        owner: 'cy',
        text: 'Company handbook',
        permissions: [{ type: 'domain', role: 'reader', domain: 'example.com', allowFileDiscovery: true }],
      },
      { name: 'Old notes.txt', mimeType: 'text/plain', owner: 'ann', text: 'old', trashed: true },
    ],
  },
}

export const q = (s: string) => encodeURIComponent(s)
