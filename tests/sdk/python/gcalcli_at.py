"""Runs gcalcli (Debian package gcalcli) against a workspace-gym server.

Usage: WSGYM_URL=http://127.0.0.1:PORT/ gcalcli_at.py <gcalcli arguments>

As with lieer_at.py, only the Discovery URL that googleapiclient's build() reads is pointed at the server; the
document served there names the server as rootUrl. gcalcli imports build() by name, so it is wrapped first.
"""
import functools
import os
import sys

from googleapiclient import discovery

url = os.environ['WSGYM_URL'].rstrip('/')
discovery.build = functools.partial(
    discovery.build, discoveryServiceUrl=url + '/discovery/v1/apis/{api}/{apiVersion}/rest')
from gcalcli.cli import main  # noqa: E402

sys.exit(main())
