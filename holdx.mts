import { World } from './envs/core/world.ts'
import { loadSample } from './gym/corpus.ts'
import { createGym } from './gym/index.ts'
const gym = createGym({ tasks: [], reuseWorlds: true })
const task = gym.prepare(loadSample(2, ['drive-organize'])[1]!)
const ep = gym.reset(task)
const bytes: Buffer = (gym.worlds as any).get(ep.worldId).baseline.bytes
ep.close()
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
for (let round = 0; round < 3; round++) {
  let t = cpu(); for (let i = 0; i < 30; i++) { const w = World.from({ bytes }); w.hold(); w.rewind(); w.close() } const hold = (cpu() - t) / 30
  const w = World.from({ bytes }); w.hold(); const d = w.raw
  const ins = d.prepare("INSERT INTO world_action_log (at_ms, user_id, service, operation_id, method, path, query, body, status) VALUES (0, ?,?,?,?,?,?,?,?)")
  const tick = d.prepare("UPDATE world_meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'clock_ms'")
  t = cpu(); for (let i = 0; i < 5000; i++) { tick.run(); ins.run('u1', 'gmail', 'op', 'GET', '/p', 'q', null, 200) } const pair = (cpu() - t) / 5
  t = cpu(); for (let i = 0; i < 200; i++) { w.heldWrites() ; d.prepare('SELECT rid FROM temp.wsgym_changed WHERE name = ?').pluck().all('world_meta') } const read = (cpu() - t) / 200
  w.rewind(); w.close()
  console.log(`open+hold ${hold.toFixed(2)} ms  tick+log ${pair.toFixed(1)} µs  read notes (10k) ${read.toFixed(3)} ms`)
}
gym.worlds.close()
