"""Runs lieer's `gmi` (Debian package lieer) against a workspace-gym server.

Usage: WSGYM_URL=http://127.0.0.1:PORT/ lieer_at.py <gmi arguments>

The only thing pointed elsewhere is the Discovery URL that googleapiclient's build() reads: the document the server
serves names the server as rootUrl, so every Gmail call lieer makes goes there unchanged.
"""
import functools
import os
import sys

from googleapiclient import discovery

url = os.environ['WSGYM_URL'].rstrip('/')
discovery.build = functools.partial(
    discovery.build, discoveryServiceUrl=url + '/discovery/v1/apis/{api}/{apiVersion}/rest')
sys.path.insert(0, '/usr/share/lieer')  # where Debian installs the package (its /usr/bin/gmi imports it from there)
from lieer import Gmailieer  # noqa: E402

Gmailieer().main()
