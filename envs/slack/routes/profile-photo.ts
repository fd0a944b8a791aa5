import { createHash } from 'node:crypto'
import { z } from 'zod'
import { stmt } from '../../core/db.ts'
import { createSlackRouter, slackInt, slackMethod, type UploadedFile } from '../../core/http.ts'
import { SlackApiError } from '../../core/errors/slack.ts'
import { me, nowSec } from '../store/core.ts'

// Profile photos. The image is not stored: its hash becomes the avatar hash in the profile's image URLs.

export const profilePhotoRouter = createSlackRouter()
const PROFILE_WRITE = { user: ['users.profile:write'] }
const USER = ['slack_user'] as const

/** PNG, JPEG or GIF by magic number. */
const isImage = (b: Buffer) =>
  (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) ||
  (b[0] === 0xff && b[1] === 0xd8) ||
  b.subarray(0, 3).toString('latin1') === 'GIF'

slackMethod(profilePhotoRouter, {
  name: 'users.setPhoto',
  scopes: PROFILE_WRITE,
  tokens: USER,
  args: z.object({
    image: z.custom<UploadedFile>((v) => !!v && typeof v === 'object' && 'data' in v).optional(),
    crop_x: slackInt().optional(),
    crop_y: slackInt().optional(),
    crop_w: slackInt().optional(),
  }),
  handler: (c, a) =>
    c.var.world.tx((db) => {
      if (!a.image) throw new SlackApiError('invalid_arguments')
      if (a.image.data.length > 10 * 1024 * 1024) throw new SlackApiError('too_large')
      if (!isImage(a.image.data)) throw new SlackApiError('bad_image')
      if ([a.crop_x, a.crop_y, a.crop_w].some((v) => v !== undefined && v < 0) || a.crop_w === 0)
        throw new SlackApiError('invalid_crop')
      const hash = createHash('sha256')
        .update(a.image.data)
        .update(`${a.crop_x ?? ''}:${a.crop_y ?? ''}:${a.crop_w ?? ''}`)
        .digest('hex')
        .slice(0, 12)
      stmt(db, 'UPDATE slack_users SET photo = ?, updated = ? WHERE id = ?').run(hash, nowSec(db), me(c).id)
      return {}
    }),
})

slackMethod(profilePhotoRouter, {
  name: 'users.deletePhoto',
  scopes: PROFILE_WRITE,
  tokens: USER,
  args: z.object({}).passthrough(),
  handler: (c) =>
    c.var.world.tx((db) => {
      stmt(db, "UPDATE slack_users SET photo = '', updated = ? WHERE id = ?").run(nowSec(db), me(c).id)
      return {}
    }),
})

// Deviation: Slack retired users.setActive (it has no effect); it answers ok and marks the caller active.
slackMethod(profilePhotoRouter, {
  name: 'users.setActive',
  scopes: { user: ['users:write'], bot: ['users:write'] },
  args: z.object({}).passthrough(),
  handler: (c) =>
    c.var.world.tx((db) => {
      stmt(db, "UPDATE slack_users SET presence = 'active' WHERE id = ?").run(me(c).id)
      return {}
    }),
})
