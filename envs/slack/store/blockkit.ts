// A Block Kit checker for blocks.validate: the block types, required fields and size limits that Slack
// enforces most often. Each problem is `{pointer, code, message}` with a JSON pointer into the payload.

export type BlockError = { pointer: string; code: string; message: string }

const TEXT_TYPES = ['plain_text', 'mrkdwn']
const ELEMENT_TYPES = [
  'button',
  'checkboxes',
  'datepicker',
  'datetimepicker',
  'email_text_input',
  'image',
  'multi_static_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
  'multi_external_select',
  'number_input',
  'overflow',
  'plain_text_input',
  'radio_buttons',
  'rich_text_input',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'timepicker',
  'url_text_input',
  'file_input',
  'workflow_button',
]
const obj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

function text(errs: BlockError[], v: unknown, p: string, opts: { plain?: boolean; max: number; required?: boolean }) {
  if (v === undefined) {
    if (opts.required) errs.push({ pointer: p, code: 'missing_required_field', message: 'field is required' })
    return
  }
  if (!obj(v) || typeof v.type !== 'string' || !(opts.plain ? ['plain_text'] : TEXT_TYPES).includes(v.type)) {
    errs.push({
      pointer: `${p}/type`,
      code: 'invalid_type',
      message: opts.plain ? "must be 'plain_text'" : "must be 'plain_text' or 'mrkdwn'",
    })
    return
  }
  if (typeof v.text !== 'string' || v.text.length === 0)
    errs.push({ pointer: `${p}/text`, code: 'missing_required_field', message: 'must be a non-empty string' })
  else if (v.text.length > opts.max)
    errs.push({ pointer: `${p}/text`, code: 'failed_constraint', message: `must be at most ${opts.max} characters` })
}

function elements(
  errs: BlockError[],
  v: unknown,
  p: string,
  min: number,
  max: number,
  check: (e: Record<string, unknown>, q: string) => void,
) {
  if (!Array.isArray(v))
    return void errs.push({ pointer: p, code: 'missing_required_field', message: 'must be an array' })
  if (v.length < min || v.length > max)
    errs.push({ pointer: p, code: 'failed_constraint', message: `must have ${min} to ${max} items` })
  v.forEach((e, i) =>
    obj(e)
      ? check(e, `${p}/${i}`)
      : errs.push({ pointer: `${p}/${i}`, code: 'invalid_type', message: 'must be an object' }),
  )
}
const element = (errs: BlockError[]) => (e: Record<string, unknown>, q: string) => {
  if (typeof e.type !== 'string' || !ELEMENT_TYPES.includes(e.type))
    errs.push({ pointer: `${q}/type`, code: 'invalid_type', message: 'unknown element type' })
  if (e.type === 'button') text(errs, e.text, `${q}/text`, { plain: true, max: 75, required: true })
}

/** Problems of one blocks array (`max` 50 for messages, 100 for views). */
export function validateBlocks(blocks: unknown, base: string, max: number): BlockError[] {
  const errs: BlockError[] = []
  if (!Array.isArray(blocks))
    return [{ pointer: base || '/', code: 'invalid_type', message: 'must be an array of blocks' }]
  if (blocks.length > max)
    errs.push({ pointer: base || '/', code: 'failed_constraint', message: `must have at most ${max} blocks` })
  const ids = new Set<string>()
  blocks.forEach((b, i) => {
    const p = `${base}/${i}`
    if (!obj(b)) return void errs.push({ pointer: p, code: 'invalid_type', message: 'must be an object' })
    if (b.block_id !== undefined) {
      if (typeof b.block_id !== 'string' || b.block_id.length > 255)
        errs.push({
          pointer: `${p}/block_id`,
          code: 'failed_constraint',
          message: 'must be a string of at most 255 characters',
        })
      else if (ids.has(b.block_id))
        errs.push({ pointer: `${p}/block_id`, code: 'failed_constraint', message: 'must be unique' })
      else ids.add(b.block_id)
    }
    switch (b.type) {
      case 'section':
        if (b.text === undefined && b.fields === undefined)
          errs.push({ pointer: p, code: 'missing_required_field', message: 'must provide text or fields' })
        text(errs, b.text, `${p}/text`, { max: 3000 })
        if (b.fields !== undefined)
          elements(errs, b.fields, `${p}/fields`, 1, 10, (f, q) => text(errs, f, q, { max: 2000, required: true }))
        if (b.accessory !== undefined)
          obj(b.accessory)
            ? element(errs)(b.accessory, `${p}/accessory`)
            : errs.push({ pointer: `${p}/accessory`, code: 'invalid_type', message: 'must be an object' })
        break
      case 'header':
        text(errs, b.text, `${p}/text`, { plain: true, max: 150, required: true })
        break
      case 'divider':
        break
      case 'image':
        if (typeof b.image_url !== 'string' && !obj(b.slack_file))
          errs.push({
            pointer: `${p}/image_url`,
            code: 'missing_required_field',
            message: 'must provide image_url or slack_file',
          })
        if (typeof b.alt_text !== 'string' || b.alt_text.length === 0 || b.alt_text.length > 2000)
          errs.push({
            pointer: `${p}/alt_text`,
            code: 'missing_required_field',
            message: 'must be a string of 1 to 2000 characters',
          })
        text(errs, b.title, `${p}/title`, { plain: true, max: 2000 })
        break
      case 'actions':
        elements(errs, b.elements, `${p}/elements`, 1, 25, element(errs))
        break
      case 'context':
        elements(errs, b.elements, `${p}/elements`, 1, 10, (e, q) =>
          e.type === 'image' ? undefined : text(errs, e, q, { max: 3000, required: true }),
        )
        break
      case 'input':
        text(errs, b.label, `${p}/label`, { plain: true, max: 2000, required: true })
        if (!obj(b.element))
          errs.push({ pointer: `${p}/element`, code: 'missing_required_field', message: 'field is required' })
        else element(errs)(b.element, `${p}/element`)
        break
      case 'rich_text':
      case 'markdown':
      case 'video':
      case 'file':
      case 'table':
      case 'call':
        break
      default:
        errs.push({ pointer: `${p}/type`, code: 'invalid_type', message: 'unknown block type' })
    }
  })
  return errs
}
