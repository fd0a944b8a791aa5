// Preloaded (`node --import`) into a program that calls `https://slack.com/api/…` with the global fetch and has no
// setting for another host (e.g. @modelcontextprotocol/server-slack): sends those calls to WSGYM_SLACK_API instead,
// unchanged otherwise, as a rewriting proxy in front of the program would.
const target = process.env.WSGYM_SLACK_API
const SLACK = 'https://slack.com/api/'
const fetchOfNode = globalThis.fetch
globalThis.fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  if (!target || !url.startsWith(SLACK)) return fetchOfNode(input, init)
  return fetchOfNode(target + url.slice(SLACK.length), init)
}
