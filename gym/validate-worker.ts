/** One validation worker thread (started by gym/validate-pool.ts): validates the tasks it is sent, one at a time. */
import { parentPort, workerData } from 'node:worker_threads'
import { createGym } from './index.ts'
import { validateTask, type ValidateOptions } from './validate.ts'
import { crashed, type WorkerReply, type WorkerRequest } from './validate-pool.ts'

const port = parentPort
if (!port) throw new Error('gym/validate-worker.ts runs as a worker thread')
const gym = createGym({ tasks: [], reuseWorlds: true })
const opts = (workerData ?? {}) as ValidateOptions
port.on('message', async (m: WorkerRequest) => {
  if ('stop' in m) {
    gym.worlds.close()
    port.close()
    return
  }
  let result
  try {
    result = await validateTask(gym, m.task, opts)
  } catch (e) {
    result = crashed(m.task, e)
  }
  port.postMessage({ index: m.index, result } satisfies WorkerReply)
})
