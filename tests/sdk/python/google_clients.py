"""google-api-python-client (Debian python3-googleapi, 1.7) against a workspace-gym server.

Usage: google_clients.py --url http://127.0.0.1:PORT/ --token TOKEN --specs DIR --peer EMAIL

Runs each scenario through the official client and prints one JSON object: scenario -> what it saw.
The calling test (tests/sdk/python.test.ts) asserts on it. A scenario that raises reports {"error": ...}.
"""
import argparse
import base64
import hashlib
import io
import json
import os
import traceback

from google.oauth2.credentials import Credentials
from google_auth_httplib2 import AuthorizedHttp
from googleapiclient.discovery import build_from_document
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaIoBaseDownload, MediaIoBaseUpload, build_http


def service(specs, name, version, url, token):
    """The client 1.7 way to point at another server: the discovery document's rootUrl (newer clients take
    client_options={'api_endpoint': url}). servicePath and batchPath stay as Google publishes them."""
    with open(os.path.join(specs, '%s.%s.discovery.json' % (name, version))) as f:
        doc = json.load(f)
    doc['rootUrl'] = url
    # build_http() is the client's own transport: it stops httplib2 from treating resumable uploads' 308 as a
    # redirect (a bare httplib2.Http() fails them with RedirectMissingLocation, against Google as here).
    http = AuthorizedHttp(Credentials(token), http=build_http())
    return build_from_document(doc, http=http)


def error_of(e):
    body = json.loads(e.content.decode('utf-8'))
    return {'status': e.resp.status, 'body': body}


def gmail_batch(gmail):
    ids = [m['id'] for m in gmail.users().messages().list(userId='me', maxResults=5).execute()['messages']]
    seen = {}

    def cb(request_id, response, exception):
        seen[request_id] = {'error': error_of(exception)['status']} if exception else {'id': response['id']}

    # Long request ids make the client fold its Content-ID headers; the server must unfold them.
    batch = gmail.new_batch_http_request(callback=cb)
    for i, mid in enumerate(ids):
        batch.add(gmail.users().messages().get(userId='me', id=mid, format='minimal'), request_id='msg-%d-%s' % (i, 'x' * 60))
    batch.add(gmail.users().messages().get(userId='me', id='0000000000000000'), request_id='missing')
    batch.execute()
    return {'ids': ids, 'seen': [seen.get('msg-%d-%s' % (i, 'x' * 60)) for i in range(len(ids))], 'missing': seen.get('missing')}


def gmail_padding_and_paging(gmail):
    pages, total, token = 0, 0, None
    while True:
        res = gmail.users().messages().list(userId='me', maxResults=3, pageToken=token).execute()
        pages += 1
        total += len(res.get('messages', []))
        token = res.get('nextPageToken')
        if not token or pages >= 3:
            break
    first = gmail.users().messages().list(userId='me', maxResults=1).execute()['messages'][0]['id']
    raw = gmail.users().messages().get(userId='me', id=first, format='raw').execute()['raw']
    # Strict decoding, as lieer and Google's samples do it: raises "Incorrect padding" on unpadded data.
    decoded = base64.urlsafe_b64decode(raw.encode('ascii'))
    return {'pages': pages, 'listed': total, 'rawDecodes': decoded[:200].decode('utf-8', 'replace').count(':') > 0}


def gmail_history(gmail, peer):
    start = gmail.users().getProfile(userId='me').execute()['historyId']
    mime = 'To: %s\r\nSubject: From Python\r\nContent-Type: text/plain\r\n\r\nsent by google-api-python-client' % peer
    sent = gmail.users().messages().send(userId='me', body={'raw': base64.urlsafe_b64encode(mime.encode()).decode()}).execute()
    hist = gmail.users().history().list(userId='me', startHistoryId=start, historyTypes='messageAdded').execute()
    added = [a['message']['id'] for h in hist.get('history', []) for a in h.get('messagesAdded', [])]
    return {'sentId': sent['id'], 'added': added, 'advanced': int(hist['historyId']) > int(start)}


def gmail_resumable_send(gmail, peer):
    mime = ('To: %s\r\nSubject: Resumable from Python\r\nContent-Type: text/plain\r\n\r\n' % peer) + ('line of text\r\n' * 30000)
    media = MediaIoBaseUpload(io.BytesIO(mime.encode()), mimetype='message/rfc822', chunksize=256 * 1024, resumable=True)
    req = gmail.users().messages().send(userId='me', body={}, media_body=media)
    res, chunks = None, 0
    while res is None:
        _, res = req.next_chunk()
        chunks += 1
    return {'chunks': chunks, 'labelIds': res['labelIds']}


def drive_uploads(drive):
    small = bytes(range(256)) * 4
    made = drive.files().create(body={'name': 'py-multipart.bin'}, fields='id,size,md5Checksum',
                                media_body=MediaIoBaseUpload(io.BytesIO(small), mimetype='application/octet-stream')).execute()
    big = bytes((i * 7) % 251 for i in range(600 * 1024))
    req = drive.files().create(body={'name': 'py-resumable.bin'}, fields='id,size,md5Checksum',
                               media_body=MediaIoBaseUpload(io.BytesIO(big), mimetype='application/octet-stream',
                                                            chunksize=256 * 1024, resumable=True))
    res, chunks = None, 0
    while res is None:
        _, res = req.next_chunk()
        chunks += 1
    out = io.BytesIO()
    down = MediaIoBaseDownload(out, drive.files().get_media(fileId=res['id']), chunksize=200 * 1024)
    done, parts = False, 0
    while not done:
        _, done = down.next_chunk()
        parts += 1
    return {
        'multipart': {'size': made['size'], 'md5ok': made['md5Checksum'] == hashlib.md5(small).hexdigest()},
        'resumable': {'chunks': chunks, 'size': res['size'], 'md5ok': res['md5Checksum'] == hashlib.md5(big).hexdigest()},
        'download': {'parts': parts, 'same': out.getvalue() == big},
    }


def drive_paging_and_errors(drive):
    names, token, pages = [], None, 0
    while True:
        res = drive.files().list(pageSize=2, pageToken=token, fields='nextPageToken,files(id,name)').execute()
        pages += 1
        names += [f['name'] for f in res['files']]
        token = res.get('nextPageToken')
        if not token or pages >= 4:
            break
    try:
        drive.files().get(fileId='1doesnotexist000000000000000000000').execute()
        missing = None
    except HttpError as e:
        missing = error_of(e)
    try:
        drive.about().get().execute()
        about = None
    except HttpError as e:
        about = error_of(e)
    return {'pages': pages, 'listed': len(names), 'missing': missing, 'aboutWithoutFields': about}


def calendar_sync(calendar):
    first = calendar.events().list(calendarId='primary', maxResults=5).execute()
    pages, token, items = 1, first.get('nextPageToken'), len(first.get('items', []))
    while token and pages < 3:
        page = calendar.events().list(calendarId='primary', maxResults=5, pageToken=token).execute()
        pages, token, items = pages + 1, page.get('nextPageToken'), items + len(page.get('items', []))
    full, token = None, None
    while True:
        full = calendar.events().list(calendarId='primary', pageToken=token).execute()
        token = full.get('nextPageToken')
        if not token:
            break
    sync = full['nextSyncToken']
    made = calendar.events().insert(calendarId='primary', body={
        'summary': 'Python sync probe', 'start': {'dateTime': '2026-06-01T10:00:00Z'}, 'end': {'dateTime': '2026-06-01T11:00:00Z'}}).execute()
    delta = calendar.events().list(calendarId='primary', syncToken=sync).execute()
    try:
        calendar.events().list(calendarId='primary', syncToken='garbage').execute()
        bad = None
    except HttpError as e:
        bad = error_of(e)
    return {'pages': pages, 'items': items, 'deltaIds': [e['id'] for e in delta.get('items', [])], 'madeId': made['id'],
            'badSyncToken': bad}


def directory_org_units(directory):
    """Org units through the 2018 discovery document's `{/orgUnitPath*}` (the client encodes the path's slashes)."""
    made = directory.orgunits().insert(
        customerId='my_customer', body={'name': 'Py Team', 'parentOrgUnitPath': '/'}).execute()
    child = directory.orgunits().insert(
        customerId='my_customer', body={'name': 'Night Shift', 'parentOrgUnitId': made['orgUnitId']}).execute()
    got = directory.orgunits().get(customerId='my_customer', orgUnitPath='Py Team/Night Shift').execute()
    listed = directory.orgunits().list(customerId='my_customer', orgUnitPath='/Py Team', type='all').execute()
    renamed = directory.orgunits().patch(customerId='my_customer', orgUnitPath=child['orgUnitId'],
                                         body={'name': 'Late Shift'}).execute()
    directory.orgunits().delete(customerId='my_customer', orgUnitPath='Py Team/Late Shift').execute()
    try:
        directory.orgunits().get(customerId='my_customer', orgUnitPath='Py Team/Late Shift').execute()
        gone = None
    except HttpError as e:
        gone = error_of(e)
    return {'got': got['orgUnitPath'], 'parent': got['parentOrgUnitId'] == made['orgUnitId'],
            'listed': [u['orgUnitPath'] for u in listed.get('organizationUnits', [])],
            'renamed': renamed['orgUnitPath'], 'gone': gone}


def directory_roles(directory):
    """Admin roles through the 2018 discovery document: a custom role, its assignment, the lists, then both gone."""
    c = 'my_customer'
    privileges = directory.privileges().list(customer=c).execute()
    service_id = privileges['items'][0]['serviceId']
    wanted = [{'serviceId': service_id, 'privilegeName': 'USERS_RETRIEVE'}]
    role = directory.roles().insert(customer=c, body={'roleName': 'Py viewers', 'rolePrivileges': wanted}).execute()
    me = directory.users().get(userKey='bob@northwind.test').execute()
    made = directory.roleAssignments().insert(customer=c, body={
        'roleId': role['roleId'], 'assignedTo': me['id'], 'scopeType': 'CUSTOMER'}).execute()
    listed = directory.roleAssignments().list(customer=c, roleId=role['roleId']).execute()
    names = [r['roleName'] for r in directory.roles().list(customer=c, maxResults=100).execute()['items']]
    directory.roleAssignments().delete(customer=c, roleAssignmentId=made['roleAssignmentId']).execute()
    directory.roles().delete(customer=c, roleId=role['roleId']).execute()
    try:
        directory.roles().get(customer=c, roleId=role['roleId']).execute()
        gone = None
    except HttpError as e:
        gone = error_of(e)
    return {'privileges': [p['privilegeName'] for p in privileges['items']], 'names': names,
            'assignedTo': [a['assignedTo'] for a in listed.get('items', [])], 'me': me['id'], 'gone': gone}


def directory_photos_domains(directory):
    """A user's photo in web-safe base64, then a secondary domain with an alias, through the 2018 discovery document."""
    c = 'my_customer'
    gif = 'R0lGODlhAQABAIAAAAAAAP___yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'
    user = 'carol@northwind.test'
    photo = directory.users().photos().update(userKey=user, body={'photoData': gif}).execute()
    got = directory.users().photos().get(userKey=user).execute()
    directory.users().photos().delete(userKey=user).execute()
    try:
        directory.users().photos().get(userKey=user).execute()
        gone = None
    except HttpError as e:
        gone = error_of(e)
    domain = directory.domains().insert(customer=c, body={'domainName': 'py-labs.test'}).execute()
    alias = directory.domainAliases().insert(customer=c, body={
        'parentDomainName': 'py-labs.test', 'domainAliasName': 'py-alias.test'}).execute()
    listed = directory.domains().list(customer=c).execute()
    directory.domains().delete(customer=c, domainName='py-labs.test').execute()
    after = directory.domainAliases().list(customer=c).execute()
    return {'photo': [photo['mimeType'], photo['width'], photo['height']], 'same': got['photoData'] == gif,
            'gone': gone, 'verified': domain['verified'], 'alias': alias['parentDomainName'],
            'domains': [[d['domainName'], [a['domainAliasName'] for a in d.get('domainAliases', [])]]
                        for d in listed['domains']],
            'aliasesAfter': after.get('domainAliases', [])}


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--url', required=True)
    p.add_argument('--token', required=True)
    p.add_argument('--specs', required=True)
    p.add_argument('--peer', required=True)
    a = p.parse_args()
    gmail = service(a.specs, 'gmail', 'v1', a.url, a.token)
    drive = service(a.specs, 'drive', 'v3', a.url, a.token)
    calendar = service(a.specs, 'calendar', 'v3', a.url, a.token)
    directory = service(a.specs, 'admin', 'directory_v1', a.url, a.token)
    scenarios = {
        'gmailBatch': lambda: gmail_batch(gmail),
        'gmailPaddingPaging': lambda: gmail_padding_and_paging(gmail),
        'gmailHistory': lambda: gmail_history(gmail, a.peer),
        'gmailResumable': lambda: gmail_resumable_send(gmail, a.peer),
        'driveUploads': lambda: drive_uploads(drive),
        'drivePagingErrors': lambda: drive_paging_and_errors(drive),
        'calendarSync': lambda: calendar_sync(calendar),
        'directoryOrgUnits': lambda: directory_org_units(directory),
        'directoryRoles': lambda: directory_roles(directory),
        'directoryPhotosDomains': lambda: directory_photos_domains(directory),
    }
    out = {}
    for name, run in scenarios.items():
        try:
            out[name] = run()
        except Exception as e:  # reported, so one failure does not hide the others
            out[name] = {'error': '%s: %s' % (type(e).__name__, e), 'trace': traceback.format_exc()[-1500:]}
    print(json.dumps(out))


if __name__ == '__main__':
    main()
