import type { ServiceProvider } from '../envs/core/service.ts'
import { gmail } from '../envs/gmail/index.ts'
import { calendar } from '../envs/calendar/index.ts'
import { drive } from '../envs/drive/index.ts'
import { docs } from '../envs/docs/index.ts'
import { slack } from '../envs/slack/index.ts'
import { identity } from '../envs/identity/index.ts'

/** The one list of services. Adding a service is one import and one entry. */
export const services = [gmail, calendar, drive, docs, slack, identity] as const satisfies readonly ServiceProvider[]
export type ServiceName = (typeof services)[number]['name']

export const allServiceTables = () => services.flatMap((s) => s.tables)
