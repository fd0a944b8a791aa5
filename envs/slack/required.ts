import type { MiddlewareHandler } from 'hono'
import { SlackApiError } from '../core/errors/slack.ts'
import type { WorldEnv } from '../core/http.ts'

/**
 * Required arguments of every implemented method, from the "Required arguments" of Slack's method pages (and the
 * `required` flags of the OpenAPI document where it has them). A call that leaves one out answers
 * `invalid_arguments` with `[ERROR] missing required field: <name>` in `response_metadata.messages`, as Slack does;
 * an empty value is not missing and reaches the method (`channel=` stays `channel_not_found`).
 * Methods with their own documented error for a missing argument keep it (`dialog.open`: `missing_dialog` /
 * `missing_trigger`; `search.*`: `no_query`).
 * Deviation: `team_id`, which Enterprise Grid's admin.* methods require, stays optional (a world is one workspace).
 */
const REQUIRED: Record<string, readonly string[]> = {
  // admin.*
  'admin.auth.policy.assignEntities': ['entity_ids', 'entity_type', 'policy_name'],
  'admin.auth.policy.getEntities': ['policy_name'],
  'admin.auth.policy.removeEntities': ['entity_ids', 'entity_type', 'policy_name'],
  'admin.barriers.create': ['barriered_from_usergroup_ids', 'primary_usergroup_id', 'restricted_subjects'],
  'admin.barriers.delete': ['barrier_id'],
  'admin.barriers.update': [
    'barrier_id', 'barriered_from_usergroup_ids', 'primary_usergroup_id', 'restricted_subjects',
  ],
  'admin.conversations.archive': ['channel_id'],
  'admin.conversations.bulkArchive': ['channel_ids'],
  'admin.conversations.bulkDelete': ['channel_ids'],
  'admin.conversations.convertToPrivate': ['channel_id'],
  'admin.conversations.convertToPublic': ['channel_id'],
  'admin.conversations.create': ['name', 'is_private'],
  'admin.conversations.delete': ['channel_id'],
  'admin.conversations.getConversationPrefs': ['channel_id'],
  'admin.conversations.getCustomRetention': ['channel_id'],
  'admin.conversations.getTeams': ['channel_id'],
  'admin.conversations.invite': ['channel_id', 'user_ids'],
  'admin.conversations.removeCustomRetention': ['channel_id'],
  'admin.conversations.rename': ['channel_id', 'name'],
  'admin.conversations.restrictAccess.addGroup': ['channel_id', 'group_id'],
  'admin.conversations.restrictAccess.listGroups': ['channel_id'],
  'admin.conversations.restrictAccess.removeGroup': ['channel_id', 'group_id'],
  'admin.conversations.setConversationPrefs': ['channel_id', 'prefs'],
  'admin.conversations.setCustomRetention': ['channel_id', 'duration_days'],
  'admin.conversations.unarchive': ['channel_id'],
  'admin.emoji.add': ['name', 'url'],
  'admin.emoji.addAlias': ['name', 'alias_for'],
  'admin.emoji.remove': ['name'],
  'admin.emoji.rename': ['name', 'new_name'],
  'admin.inviteRequests.approve': ['invite_request_id'],
  'admin.inviteRequests.deny': ['invite_request_id'],
  'admin.roles.addAssignments': ['role_id', 'entity_ids', 'user_ids'],
  'admin.roles.removeAssignments': ['role_id', 'entity_ids', 'user_ids'],
  'admin.teams.settings.setDefaultChannels': ['channel_ids'],
  'admin.teams.settings.setDescription': ['description'],
  'admin.teams.settings.setDiscoverability': ['discoverability'],
  'admin.teams.settings.setIcon': ['image_url'],
  'admin.teams.settings.setName': ['name'],
  'admin.usergroups.addChannels': ['usergroup_id', 'channel_ids'],
  'admin.usergroups.addTeams': ['usergroup_id', 'team_ids'],
  'admin.usergroups.listChannels': ['usergroup_id'],
  'admin.usergroups.removeChannels': ['usergroup_id', 'channel_ids'],
  'admin.users.assign': ['user_id'],
  'admin.users.getExpiration': ['user_id'],
  'admin.users.invite': ['email', 'channel_ids'],
  'admin.users.remove': ['user_id'],
  'admin.users.session.clearSettings': ['user_ids'],
  'admin.users.session.getSettings': ['user_ids'],
  'admin.users.session.invalidate': ['session_id'],
  'admin.users.session.reset': ['user_id'],
  'admin.users.session.resetBulk': ['user_ids'],
  'admin.users.session.setSettings': ['user_ids'],
  'admin.users.setAdmin': ['user_id'],
  'admin.users.setExpiration': ['user_id', 'expiration_ts'],
  'admin.users.setOwner': ['user_id'],
  'admin.users.setRegular': ['user_id'],
  // apps, calls, canvases, views
  'apps.manifest.create': ['manifest'],
  'apps.manifest.delete': ['app_id'],
  'apps.manifest.export': ['app_id'],
  'apps.manifest.update': ['app_id', 'manifest'],
  'apps.manifest.validate': ['manifest'],
  'assistant.threads.setStatus': ['channel_id', 'thread_ts', 'status'],
  'assistant.threads.setSuggestedPrompts': ['channel_id', 'thread_ts', 'prompts'],
  'assistant.threads.setTitle': ['channel_id', 'thread_ts', 'title'],
  'bookmarks.add': ['channel_id', 'title', 'type'],
  'bookmarks.edit': ['bookmark_id', 'channel_id'],
  'bookmarks.list': ['channel_id'],
  'bookmarks.remove': ['bookmark_id', 'channel_id'],
  'calls.add': ['external_unique_id', 'join_url'],
  'calls.end': ['id'],
  'calls.info': ['id'],
  'calls.participants.add': ['id', 'users'],
  'calls.participants.remove': ['id', 'users'],
  'calls.update': ['id'],
  'canvases.access.delete': ['canvas_id'],
  'canvases.access.set': ['access_level', 'canvas_id'],
  'canvases.delete': ['canvas_id'],
  'canvases.edit': ['canvas_id', 'changes'],
  'canvases.sections.lookup': ['canvas_id', 'criteria'],
  'views.open': ['trigger_id', 'view'],
  'views.publish': ['user_id', 'view'],
  'views.push': ['trigger_id', 'view'],
  'views.update': ['view'],
  // chat
  'chat.appendStream': ['channel', 'ts'],
  'chat.delete': ['channel', 'ts'],
  'chat.deleteScheduledMessage': ['channel', 'scheduled_message_id'],
  'chat.getPermalink': ['channel', 'message_ts'],
  'chat.meMessage': ['channel', 'text'],
  'chat.postEphemeral': ['channel', 'user'],
  'chat.postMessage': ['channel'],
  'chat.scheduleMessage': ['channel', 'post_at'],
  'chat.startStream': ['channel', 'thread_ts'],
  'chat.stopStream': ['channel', 'ts'],
  'chat.update': ['channel', 'ts'],
  // conversations
  'conversations.archive': ['channel'],
  'conversations.canvases.create': ['channel_id'],
  'conversations.close': ['channel'],
  'conversations.create': ['name'],
  'conversations.history': ['channel'],
  'conversations.info': ['channel'],
  'conversations.invite': ['channel', 'users'],
  'conversations.join': ['channel'],
  'conversations.kick': ['channel', 'user'],
  'conversations.leave': ['channel'],
  'conversations.mark': ['channel', 'ts'],
  'conversations.members': ['channel'],
  'conversations.rename': ['channel', 'name'],
  'conversations.replies': ['channel', 'ts'],
  'conversations.setPurpose': ['channel', 'purpose'],
  'conversations.setTopic': ['channel', 'topic'],
  'conversations.unarchive': ['channel'],
  // files
  'files.completeUploadExternal': ['files'],
  'files.delete': ['file'],
  'files.getUploadURLExternal': ['filename', 'length'],
  'files.info': ['file'],
  'files.remote.add': ['external_id', 'external_url', 'title'],
  'files.remote.share': ['channels'],
  'files.revokePublicURL': ['file'],
  'files.sharedPublicURL': ['file'],
  // lists
  'slackLists.access.delete': ['list_id'],
  'slackLists.access.set': ['list_id', 'access_level'],
  'slackLists.create': ['name'],
  'slackLists.download.get': ['list_id', 'job_id'],
  'slackLists.download.start': ['list_id'],
  'slackLists.items.create': ['list_id'],
  'slackLists.items.delete': ['list_id', 'id'],
  'slackLists.items.deleteMultiple': ['list_id', 'ids'],
  'slackLists.items.info': ['list_id', 'id'],
  'slackLists.items.list': ['list_id'],
  'slackLists.items.update': ['list_id', 'cells'],
  'slackLists.update': ['id'],
  // reactions, pins, reminders, search
  'pins.add': ['channel', 'timestamp'],
  'pins.list': ['channel'],
  'pins.remove': ['channel'],
  'reactions.add': ['channel', 'name', 'timestamp'],
  'reactions.remove': ['name'],
  'reminders.add': ['text', 'time'],
  'reminders.complete': ['reminder'],
  'reminders.delete': ['reminder'],
  'reminders.info': ['reminder'],
  // users, groups, dnd
  'dnd.setSnooze': ['num_minutes'],
  'usergroups.create': ['name'],
  'usergroups.disable': ['usergroup'],
  'usergroups.enable': ['usergroup'],
  'usergroups.update': ['usergroup'],
  'usergroups.users.list': ['usergroup'],
  'usergroups.users.update': ['usergroup', 'users'],
  'users.discoverableContacts.lookup': ['email'],
  'users.info': ['user'],
  'users.lookupByEmail': ['email'],
  'users.setPhoto': ['image'],
  'users.setPresence': ['presence'],
}

/** The required arguments of a method (none for methods not listed). */
export const requiredArgsOf = (method: string): readonly string[] => REQUIRED[method] ?? []

/** Methods with required arguments (for tests). */
export const methodsWithRequiredArgs = (): string[] => Object.keys(REQUIRED)

/** Refuses a call that leaves out a required argument, before the method runs. */
export const requiredArgs: MiddlewareHandler<WorldEnv> = async (c, next) => {
  const method = new URL(c.req.url).pathname.slice(5)
  const args = c.var.slackArgs ?? {}
  const missing = requiredArgsOf(method).find((name) => args[name] === undefined || args[name] === null)
  if (missing) {
    throw new SlackApiError('invalid_arguments', {
      response_metadata: { messages: [`[ERROR] missing required field: ${missing}`] },
    })
  }
  return next()
}
