/**
 * Which registered methods a task's typed tool list offers. A person's assistant works with mail, files,
 * documents, events and messages; it does not administer the workspace, install apps, open push channels or
 * drive UI surfaces. Methods in the first group are offered only to tasks tagged `admin`; the second group
 * (machinery no agent can use: webhooks, OAuth flows, app manifests, streaming, legacy aliases) is never offered.
 */

/** Administrative methods: workspace or domain administration, other users' delegation and forwarding. */
const ADMIN: RegExp[] = [
  /^admin\./,
  /^team\.(accessLogs|billableInfo|billing\.|integrationLogs|preferences\.|externalTeams\.)/,
  /^users\.setActive$/,
  // Editing a group's members or name is open to members unless
  // a workspace restricts it; creating and disabling are not.
  /^usergroups\.(create|disable|enable)$/,
  /^gmail\.users\.settings\.(delegates|forwardingAddresses|sendAs)\./,
  /^gmail\.users\.settings\.(getAutoForwarding|updateAutoForwarding)$/,
  /^drive\.drives\.(create|delete|hide|unhide|update)$/,
  /^drive\.files\.(emptyTrash|generateCseToken)$/,
  /^drive\.approvals\./,
  /^drive\.accessproposals\./,
  /^calendar\.calendars\.transferOwnership$/,
  // Migration tools: they file mail without sending it (and let a policy fake a sent reply).
  /^gmail\.users\.messages\.(import|insert)$/,
  // Public links and enterprise directory look-ups.
  /^files\.(sharedPublicURL|revokePublicURL)$/,
  /^users\.discoverableContacts\./,
]

/** Never offered as tools: push channels, app installation and manifests, OAuth, sockets, streaming, UI surfaces. */
const MACHINERY: RegExp[] = [
  /\.watch$/,
  /^(drive|calendar)\.channels\.stop$/,
  /^gmail\.users\.stop$/,
  /^apps\./,
  /^oauth\./,
  /^openid\./,
  /^rtm\./,
  /^auth\.(revoke|teams\.)/,
  /^api\.test$/,
  /^dialog\./,
  /^views\./,
  /^calls\./,
  /^assistant\./,
  /^blocks\.validate$/,
  /^chat\.(startStream|appendStream|stopStream|unfurl)$/,
  /^files\.remote\./,
  /^files\.upload$/,
  /^slackLists\.download\./,
  /^users\.(deletePhoto|setPhoto|identity)$/,
  /^drive\.teamdrives\./,
  /^drive\.apps\./,
  /^drive\.operations\./,
  /^drive\.files\.generateIds$/,
  /^dnd\.teamInfo$/,
  /^bots\.info$/,
  /^stars\./,
]

export type ToolScope = { admin?: boolean }

/** Whether a method id is offered as a typed tool. */
export function offered(methodId: string, scope: ToolScope = {}): boolean {
  if (MACHINERY.some((r) => r.test(methodId))) return false
  if (!scope.admin && ADMIN.some((r) => r.test(methodId))) return false
  return true
}

/** Most tools a hosted model accepts in one request (OpenAI's limit; Anthropic and Gemini allow at least as many). */
export const MAX_TOOLS = 128
/** Token budget of one task's tool list (schemas and descriptions, ≈ 4 chars per token). */
export const TOOL_TOKEN_BUDGET = 32_000

/**
 * Dropped first, in this order, when a task's list would still exceed
 * MAX_TOOLS or TOOL_TOKEN_BUDGET (niche surfaces of big services).
 */
export const LOW_PRIORITY: RegExp[] = [
  // Admin-scoped lists only (tasks tagged `admin`): the administration surfaces beyond member accounts.
  /^admin\.(conversations|teams|apps|emoji|inviteRequests|barriers|usergroups|auth|roles|analytics|functions|workflows)\./,
  /^admin\.users\.(session\.|invite$|assign$|setExpiration$|getExpiration$)/,
  // Directory and IAM surfaces beyond accounts, groups and apps: managing buildings and features, admin roles, app
  // passwords and backup codes, custom user schemas, org units, the customer, its domains and domain aliases, user
  // photos, full-resource updates where patch does the same, service-account keys (signJwt needs none) and raw signing.
  /^directory\.resources\.(buildings|features)\.(insert|update|patch|delete|rename)$/,
  /^directory\.(roles|roleAssignments|privileges|orgunits|customers|domains|domainAliases)\./,
  /^directory\.(asps|verificationCodes|schemas)\./,
  /^directory\.users\.photos\./,
  /^directory\.(users|groups|members|resources\.calendars)\.update$/,
  /^iam\.projects\.serviceAccounts\.keys\./,
  /^iamcredentials\.projects\.serviceAccounts\.signBlob$/,
  /^team\.(accessLogs|billableInfo|billing\.|integrationLogs|preferences\.|externalTeams\.)/,
  /^drive\.(approvals|accessproposals)\./,
  /^slackLists\./,
  /^canvases\.access\./,
  /^chat\.meMessage$/,
  /^dnd\./,
  /^team\.profile\.get$/,
  /^emoji\.list$/,
  /^drive\.revisions\./,
  /^drive\.replies\./,
  /^calendar\.calendarList\./,
  /^gmail\.users\.settings\.(getImap|updateImap|getPop|updatePop|getLanguage|updateLanguage)$/,
  /^bookmarks\./,
  /^pins\./,
  /^canvases\./,
  /^conversations\.canvases\./,
  /^usergroups\./,
  /^users\.(getPresence|setPresence|profile\.set)$/,
  /^calendar\.(acl|settings)\./,
  /^calendar\.colors\.get$/,
  /^drive\.changes\./,
  /^drive\.files\.(listLabels|modifyLabels)$/,
  /^gmail\.users\.history\.list$/,
  // Only for lists of four or five services that still exceed the token budget: alternatives (patch for update),
  // migration, and surfaces no multi-app family needs.
  /^calendar\.events\.(import|update|quickAdd|move)$/,
  /^drive\.comments\./,
  /^reactions\./,
  /^reminders\./,
  /^files\./,
  /^gmail\.users\.settings\./,
  /^gmail\.users\.drafts\./,
]

/**
 * Resource fields the API reference marks "Output only": a request body that sets them is ignored or refused, so
 * tool schemas leave them out (they are most of Drive's File schema). Keyed by `<service>.<schema>`.
 */
export const OUTPUT_ONLY: Record<string, readonly string[]> = {
  'drive.File': [
    'capabilities',
    'imageMediaMetadata',
    'videoMediaMetadata',
    'permissions',
    'permissionIds',
    'owners',
    'lastModifyingUser',
    'sharingUser',
    'trashingUser',
    'labelInfo',
    'linkShareMetadata',
    'clientEncryptionDetails',
    'exportLinks',
    'thumbnailLink',
    'thumbnailVersion',
    'iconLink',
    'webViewLink',
    'webContentLink',
    'hasThumbnail',
    'headRevisionId',
    'md5Checksum',
    'sha1Checksum',
    'sha256Checksum',
    'size',
    'quotaBytesUsed',
    'version',
    'spaces',
    'ownedByMe',
    'shared',
    'explicitlyTrashed',
    'trashedTime',
    'isAppAuthorized',
    'hasAugmentedPermissions',
    'fullFileExtension',
    'fileExtension',
    'modifiedByMe',
    'modifiedByMeTime',
    'viewedByMe',
    'sharedWithMeTime',
    'driveId',
    'teamDriveId',
    'resourceKey',
    'kind',
  ],
  // `gadget` is deprecated rather than output only; the reference says to stop using it.
  'calendar.Event': ['creator', 'created', 'updated', 'htmlLink', 'hangoutLink', 'kind', 'etag', 'locked', 'gadget'],
}

/** Descriptions for Slack methods the method list leaves blank (written here, in our words). */
export const SLACK_DESCRIPTIONS: Record<string, string> = {
  'bookmarks.add': 'Add a bookmark (a link) to a channel.',
  'bookmarks.edit': 'Edit a bookmark of a channel.',
  'bookmarks.list': 'List the bookmarks of a channel.',
  'bookmarks.remove': 'Remove a bookmark from a channel.',
  'canvases.access.delete': 'Remove access to a canvas for users or channels.',
  'canvases.access.set': 'Set the access level of users or channels to a canvas.',
  'canvases.create': 'Create a standalone canvas.',
  'canvases.delete': 'Delete a canvas.',
  'canvases.edit': 'Apply changes (insert, replace, delete sections) to a canvas.',
  'canvases.sections.lookup': 'Find sections of a canvas matching criteria.',
  'conversations.canvases.create': 'Create a canvas attached to a channel.',
  'files.completeUploadExternal': 'Finish an upload started with files.getUploadURLExternal and share the files.',
  'files.getUploadURLExternal': 'Get a URL to upload a file to; finish with files.completeUploadExternal.',
  'search.all': 'Search messages and files matching a query.',
  'search.files': 'Search files matching a query.',
  'slackLists.access.delete': 'Revoke access to a list for users or channels.',
  'slackLists.access.set': 'Set the access level of users or channels to a list.',
  'slackLists.create': 'Create a list.',
  'slackLists.items.create': 'Add an item (row) to a list.',
  'slackLists.items.delete': 'Delete an item from a list.',
  'slackLists.items.deleteMultiple': 'Delete several items from a list.',
  'slackLists.items.info': 'Get one item of a list.',
  'slackLists.items.list': 'List the items of a list.',
  'slackLists.items.update': 'Update cells of list items.',
  'slackLists.update': 'Update a list (name, description).',
  'users.discoverableContacts.lookup': 'Look up whether an email address belongs to a discoverable Slack user.',
  'team.externalTeams.list': 'List the external organizations connected to this workspace.',
  'team.billing.info': 'Read the billing plan of the workspace.',
  'team.preferences.list': 'List the workspace preferences.',
  'auth.teams.list': 'List the workspaces a token can act in.',
}
