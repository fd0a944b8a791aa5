import { z } from 'zod'
const s = z.object({ pageSize: z.coerce.number().int().min(1).max(1000).default(100), b: z.enum(['a','b']).optional(), t: z.stringbool().optional() })
for (const q of [{pageSize:'1001'},{pageSize:'0'},{pageSize:'abc'},{pageSize:'1.5'},{b:'x'},{t:'maybe'}]) {
  const r = s.safeParse(q); console.log(JSON.stringify(r.error?.issues))
}
const ps = s.shape.pageSize
console.log(ps.constructor.name, (ps as any).def?.type, (ps as any).unwrap?.().minValue, (ps as any).unwrap?.().maxValue)
