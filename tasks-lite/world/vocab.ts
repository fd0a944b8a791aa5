/**
 * The haystack's own vocabulary. Families plant their needles with tasks-lite/families/common.ts (people from its
 * FIRST/LAST pools, customer companies at `<name>.test`); the background uses none of that: its people come from the
 * pools below, its outside domains end in `.example`, and its subjects, file names and channel names draw on
 * project code names and topics no family uses. Family authors: do not plant anything that uses these words.
 */

export const BG_FIRST = [
  'Anouk',
  'Bertil',
  'Cosima',
  'Desmond',
  'Eamon',
  'Fenna',
  'Gideon',
  'Hollis',
  'Isolde',
  'Jorun',
  'Kasimir',
  'Leontine',
  'Marlow',
  'Niamh',
  'Orrin',
  'Perpetua',
  'Quinlan',
  'Rasmus',
  'Saoirse',
  'Thaddeus',
  'Ulla',
  'Vesna',
  'Wilhelmina',
  'Xanthe',
  'Yorick',
  'Zephyra',
] as const

export const BG_LAST = [
  'Abernathy',
  'Blomqvist',
  'Castellanos',
  'Delacroix',
  'Eriksen',
  'Fairbairn',
  'Gruenewald',
  'Halloran',
  'Ishikawa',
  'Jablonski',
  'Kirkegaard',
  'Lachance',
  'Mbeki',
  'Norgaard',
  'Ostrowski',
  'Pemberton',
  'Quarshie',
  'Rautio',
  'Szabo',
  'Thorvaldsen',
  'Uchida',
  'Valderrama',
  'Whitcombe',
  'Yilmaz',
  'Zubiri',
] as const

/** Project code names used by background threads, files, events and channels. */
export const BG_PROJECTS = [
  'Marigold',
  'Heron',
  'Basalt',
  'Juniper',
  'Tamarack',
  'Sirocco',
  'Lantern',
  'Mosaic',
  'Pebble',
  'Quartz',
  'Wren',
  'Osprey',
  'Cinder',
  'Fjord',
  'Gossamer',
  'Kelp',
] as const

/** Newsletters: sender, address, list id and the themes of their issues. */
export const BG_NEWSLETTERS = [
  {
    name: 'The Cloud Brief',
    email: 'editors@thecloudbrief.example',
    list: 'weekly.thecloudbrief.example',
    themes: ['serverless cold starts', 'egress pricing tricks', 'observability budgets', 'edge caching'],
  },
  {
    name: 'Devtools Digest',
    email: 'hello@devtoolsdigest.example',
    list: 'digest.devtoolsdigest.example',
    themes: ['monorepo tooling', 'flaky test hunting', 'code review etiquette', 'build caches'],
  },
  {
    name: 'Market Pulse',
    email: 'news@marketpulse.example',
    list: 'daily.marketpulse.example',
    themes: ['rate decisions', 'commodity swings', 'earnings season', 'currency moves'],
  },
  {
    name: 'Design Notes',
    email: 'letters@designnotes.example',
    list: 'letters.designnotes.example',
    themes: ['type scales', 'motion guidelines', 'accessible colour', 'empty states'],
  },
  {
    name: 'Weekend Reads',
    email: 'curator@weekendreads.example',
    list: 'picks.weekendreads.example',
    themes: ['long-form science', 'urban cycling', 'sourdough chemistry', 'night sky guides'],
  },
] as const

/** Automated notification senders and the shape of their mail. */
export const BG_NOTIFIERS = [
  { name: 'Pipeline CI', email: 'builds@pipelineci.example', kind: 'ci' },
  { name: 'Tracklight', email: 'notifications@tracklight.example', kind: 'tracker' },
  { name: 'Expensely', email: 'no-reply@expensely.example', kind: 'expense' },
  { name: 'TravelDesk', email: 'itinerary@traveldesk.example', kind: 'travel' },
  { name: 'Codehost', email: 'noreply@codehost.example', kind: 'review' },
] as const

/** Outside firms the background corresponds with (never a family's customers). */
export const BG_PARTNERS = [
  { company: 'Tallgrass Consulting', domain: 'tallgrass.example' },
  { company: 'Meridian Print Co', domain: 'meridianprint.example' },
  { company: 'Quayside Events', domain: 'quayside-events.example' },
  { company: 'Brightwater Recruiting', domain: 'brightwater-recruiting.example' },
  { company: 'Sandpiper Translations', domain: 'sandpiper-translations.example' },
  { company: 'Ironbark Facilities', domain: 'ironbark-facilities.example' },
  { company: 'Lowtide Studio', domain: 'lowtide.example' },
] as const

/** Internal thread topics: subject stem and opening line. */
export const BG_TOPICS = [
  ['design crit', 'Notes from the design crit are below; the main open question is the navigation depth.'],
  [
    'load test results',
    'The load test finished overnight. p95 stayed flat until 3x traffic, then the queue backed up.',
  ],
  ['hiring loop feedback', 'Sharing my interview feedback before the debrief. Strong on systems, weaker on testing.'],
  [
    'accessibility audit',
    'The accessibility audit flagged contrast on the settings pages and missing labels on two forms.',
  ],
  ['A/B test readout', 'The experiment reached significance: the shorter form lifted completion by about four points.'],
  [
    'docs migration',
    'We moved the first batch of pages to the new docs site. Redirects are in place for the old paths.',
  ],
  ['release notes draft', 'Draft release notes are ready. Please check the wording of the known-issues section.'],
  ['book club pick', 'Next month we are reading a book on systems thinking. Vote for the meeting day in the poll.'],
  ['capacity planning', 'Storage grows about six percent a month; we should order the next tier before summer.'],
  ['office plants rota', 'The plant rota for the next quarter is up; swap slots among yourselves if needed.'],
  ['retro actions', 'Three actions from the retro: fewer parallel tasks, earlier demos, one owner per ticket.'],
  ['dependency upgrades', 'The framework upgrade is merged behind a flag. Two packages still pin the old version.'],
] as const

export const BG_REPLIES = [
  'Thanks, this is helpful.',
  'Makes sense to me. I will pick up the second item.',
  'Can we walk through it tomorrow?',
  'Added a few comments inline.',
  'Looks good overall; one question on the numbers in section two.',
  'I will be out Friday, so let us wrap this up Thursday.',
  'Agreed. Ship it.',
  'Following up here, any update?',
] as const

/** Drive: top-level folders and the kinds of files inside them. */
export const BG_FOLDERS = [
  'Projects',
  'Research',
  'Design assets',
  'Team rituals',
  'Archive 2025',
  'Templates',
  'Scratch',
] as const
export const BG_FILE_STEMS = [
  'kickoff notes',
  'sketches',
  'user interviews',
  'benchmark numbers',
  'architecture diagram',
  'retro board',
  'reading list',
  'mood board',
  'experiment log',
  'glossary',
  'decision record',
  'interview guide',
  'capacity model',
] as const

/** Slack: background channels (their names never equal a family's channel names) and chatter. */
export const BG_CHANNELS = [
  { name: 'design-crit', purpose: 'Share work in progress for feedback' },
  { name: 'coffee-chat', purpose: 'Random pairings and small talk' },
  { name: 'running-club', purpose: 'Routes, races and early mornings' },
  { name: 'til', purpose: 'Today I learned' },
  { name: 'platform-guild', purpose: 'Build tooling, CI and developer experience' },
  { name: 'book-club', purpose: 'What we are reading' },
  { name: 'kudos', purpose: 'Say thanks in public' },
  { name: 'data-science', purpose: 'Experiments, dashboards and questions about metrics' },
  { name: 'frontend-guild', purpose: 'Components, CSS and browser quirks' },
  { name: 'music', purpose: 'What is on your headphones' },
] as const

export const BG_CHATTER = [
  'Anyone tried the new espresso beans on the third floor?',
  'Reminder that the guild meets after stand-up.',
  'TIL you can pipe a diff straight into the review tool.',
  'Sharing a draft of the mood board, feedback welcome.',
  'The CI queue is long this morning, bear with it.',
  'Who has a spare monitor cable?',
  'Finished the chapter on feedback loops, strongly recommend.',
  'Nice work on the dashboard cleanup!',
  'Is the flaky snapshot test still flaky or did someone fix it?',
  'Posting the run route for Saturday.',
  'Does anyone know who owns the staging DNS entries?',
  'Playlist for deep work, enjoy.',
  'Small win: the bundle is 40 KB lighter after the tree-shaking change.',
  'Lovely sunrise on the river path today.',
] as const

export const BG_REACTIONS = ['thumbsup', 'tada', 'eyes', 'heart', 'raised_hands', 'joy', 'white_check_mark'] as const

/** User labels the background creates for each world user (newsletters, receipts and travel mail carry them). */
export const BG_LABELS = { newsletter: 'Newsletters', expense: 'Receipts', travel: 'Travel' } as const

/** Every outside domain the background may use. */
export const BG_DOMAINS: readonly string[] = [
  ...BG_NEWSLETTERS.map((n) => n.email.split('@')[1]!),
  ...BG_NOTIFIERS.map((n) => n.email.split('@')[1]!),
  ...BG_PARTNERS.map((p) => p.domain),
]

/** What the haystack reserves: family authors keep their planted names, domains and words out of these. */
export const RESERVED = {
  firstNames: BG_FIRST,
  lastNames: BG_LAST,
  domains: BG_DOMAINS,
  projects: BG_PROJECTS,
  companies: [
    ...BG_PARTNERS.map((p) => p.company),
    ...BG_NEWSLETTERS.map((n) => n.name),
    ...BG_NOTIFIERS.map((n) => n.name),
  ],
  channels: BG_CHANNELS.map((c) => c.name),
  folders: BG_FOLDERS,
  labels: Object.values(BG_LABELS),
} as const
