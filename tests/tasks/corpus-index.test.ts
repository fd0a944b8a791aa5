import { afterAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { WorldManager } from '../../server/worlds.ts'
import { createAgentApp } from '../../server/app.ts'
import { gymRouter } from '../../gym/http.ts'
import { createGym } from '../../gym/index.ts'
import { INDEX_FILE, staleIndexLines } from '../../tasks-lite/generate.ts'
import { generateAll, indexText, instance, PER_FAMILY, tierOf, type IndexEntry } from '../../tasks-lite/corpus.ts'
import { families } from '../../tasks-lite/families/index.ts'
import { HELD_OUT_FAMILIES, splitOf } from '../../tasks-lite/splits.ts'
import { taskSplit } from '../../trainer/split.ts'

const tasks = generateAll()
const index = readFileSync(INDEX_FILE, 'utf8')
const entries = index
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as IndexEntry)

describe('tasks-lite/index.jsonl', () => {
  it('is what the generators produce now, byte for byte (run `npm run tasks:generate` after changing a family)', () => {
    expect(staleIndexLines(index, indexText(tasks))).toEqual([])
    expect(index).toBe(indexText(generateAll()))
  })

  it('lists every family with PER_FAMILY instances and the fields a lab filters on', () => {
    expect(entries.length).toBe(families.length * PER_FAMILY)
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length)
    for (const e of entries) {
      expect(['train', 'dev', 'test']).toContain(e.split)
      expect(['easy', 'medium', 'hard']).toContain(e.tier)
      expect(e.sha256).toMatch(/^[0-9a-f]{64}$/)
      expect(typeof e.multiApp).toBe('boolean')
    }
    expect(new Set(entries.map((e) => e.tier))).toEqual(new Set(['easy', 'medium', 'hard']))
  })

  it('changes when a task changes (the hash pins its whole JSON)', () => {
    const bumped = tasks.map((t, i) => (i === 3 ? { ...t, instruction: `${t.instruction} ` } : t))
    expect(staleIndexLines(index, indexText(bumped))).toEqual([tasks[3]!.id])
  })
})

describe('splits', () => {
  it('holds at least 8 whole families out of train and dev, and holds out seeds of training families', () => {
    expect(HELD_OUT_FAMILIES.length).toBeGreaterThanOrEqual(8)
    for (const f of HELD_OUT_FAMILIES) expect(families.map((x) => x.id)).toContain(f)
    for (const e of entries) if (HELD_OUT_FAMILIES.includes(e.family)) expect(e.split, e.id).toBe('test')
    const trainFamilies = new Set(entries.filter((e) => e.split === 'train').map((e) => e.family))
    for (const f of HELD_OUT_FAMILIES) expect(trainFamilies.has(f)).toBe(false)
    const heldSeeds = entries.filter((e) => trainFamilies.has(e.family) && e.split !== 'train')
    expect(new Set(heldSeeds.map((e) => e.split))).toEqual(new Set(['dev', 'test']))
  })

  it('is stored on each task and is what the trainer uses', () => {
    for (const t of tasks) {
      expect(t.split).toBe(splitOf(t.family, t.id))
      expect(taskSplit(t)).toBe(t.split)
    }
  })
})

describe('tiers', () => {
  it('come from volume, distractors, reference calls and apps', () => {
    const t = tasks[0]!
    const small = {
      ...t,
      world: { volume: 'none' as const },
      nearMisses: t.nearMisses.slice(0, 2),
      reference: t.reference.slice(0, 2),
      services: ['gmail'],
    }
    expect(tierOf(small)).toBe('easy')
    const big = {
      ...small,
      world: { volume: 'heavy' as const },
      reference: Array(10).fill(t.reference[0]),
      services: ['gmail', 'drive', 'slack'],
    }
    expect(tierOf(big)).toBe('hard')
    expect(tierOf({ ...small, world: { volume: 'heavy' as const } })).toBe('medium')
  })
})

describe('POST /gym/reset {family, seed}', () => {
  const worlds = new WorldManager()
  const gym = createGym({ worlds, app: createAgentApp(worlds), tasks: tasks.slice(0, 1) })
  const control = gymRouter(worlds, { agentBaseUrl: 'http://agent.test:8080', gym })
  afterAll(() => worlds.close())
  const reset = async (json: unknown) => {
    const res = await control.request('/gym/reset', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    })
    return { status: res.status, body: (await res.json()) as Record<string, any> }
  }

  it('starts an instance of a family by seed, inside and beyond the corpus', async () => {
    const f = families.find((x) => x.id === 'slack-pin-final')!
    for (const seed of [7, 5000]) {
      const r = await reset({ family: f.id, seed })
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      expect(r.body.instruction).toBe(instance(f, seed).instruction)
      await control.request(`/gym/episodes/${r.body.episodeId}`, { method: 'DELETE' })
    }
  })

  it('refuses an unknown family (404) and a seed that is not a positive integer (400)', async () => {
    expect((await reset({ family: 'no-such-family', seed: 1 })).status).toBe(404)
    for (const seed of [0, -1, 1.5, 'x', 2_000_000])
      expect((await reset({ family: 'slack-pin-final', seed })).status).toBe(400)
  })
})
