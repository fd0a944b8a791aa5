/**
 * A stored oauth2client credential (`Storage` JSON), as a Python tool's own OAuth flow leaves it: lieer and gcalcli
 * read it from a file. The access token does not expire within a test; refresh would go to this server's /token.
 */
export function oauth2clientCredential(accessToken: string, serverUrl: string, clientId: string, scope: string) {
  return {
    access_token: accessToken,
    client_id: clientId,
    client_secret: 'unused',
    refresh_token: null,
    token_expiry: '2099-01-01T00:00:00Z',
    token_uri: `${serverUrl}token`,
    user_agent: null,
    revoke_uri: `${serverUrl}revoke`,
    id_token: null,
    id_token_jwt: null,
    token_response: null,
    scopes: [scope],
    token_info_uri: null,
    invalid: false,
    _class: 'OAuth2Credentials',
    _module: 'oauth2client.client',
  }
}
