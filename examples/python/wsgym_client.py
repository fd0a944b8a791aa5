"""Stdlib-only client for the workspace-gym HTTP gym (control listener).

    from wsgym_client import GymClient
    gym = GymClient("http://127.0.0.1:8081", admin_token="...")
    ep = gym.reset("gmail-reply-po-1")            # or reset(task={...}) for an inline task
    obs = ep.step("http_request", {"method": "GET", "path": "/gmail/v1/users/me/messages"})
    print(ep.verify()["reward"])
    ep.close()

Direct REST calls to the agent port with ``ep.tokens["google"]`` (or ``ep.tokens["slack"]``) act in the same
world and count as actions, see ``ep.rest()``.
"""
from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Optional


class GymError(RuntimeError):
    def __init__(self, status: int, body: Any):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


def _request(method: str, url: str, body: Any = None, headers: Optional[dict] = None, timeout: float = 60) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    h = {"accept": "application/json", **(headers or {})}
    if data is not None:
        h["content-type"] = "application/json"
    req = urllib.request.Request(url, data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            raw = res.read()
            status = res.status
    except urllib.error.HTTPError as e:
        raw, status = e.read(), e.code
    text = raw.decode("utf-8", "replace")
    try:
        return status, json.loads(text) if text else None
    except json.JSONDecodeError:
        return status, text


class Episode:
    """One episode: its instruction, tools (OpenAI function-calling JSON), tokens and base URLs."""

    def __init__(self, client: "GymClient", info: dict):
        self.client = client
        self.info = info
        self.id: str = info["episodeId"]
        self.instruction: str = info["instruction"]
        self.tools: list = info["tools"]
        self.tokens: dict = info["tokens"]
        self.base_urls: dict = info["baseUrls"]
        self.observation: str = info["observation"]

    def step(self, tool: str, arguments: Optional[dict] = None) -> dict:
        """One tool call -> {observation, terminated, truncated, info}."""
        return self.client._call("POST", f"/gym/episodes/{self.id}/step", {"tool": tool, "arguments": arguments or {}})

    def verify(self) -> dict:
        """Runs the oracle -> {reward, passed, metrics, violations, details}."""
        return self.client._call("POST", f"/gym/episodes/{self.id}/verify")

    def close(self) -> None:
        self.client._call("DELETE", f"/gym/episodes/{self.id}")

    def rest(self, method: str, path: str, query: Optional[dict] = None, body: Any = None) -> tuple[int, Any]:
        """A direct REST call on the agent port with the episode's token (Slack paths use the Slack token)."""
        token = self.tokens["slack"] if path.startswith("/api/") else self.tokens["google"]
        url = self.base_urls["google"].rstrip("/") + path + (("?" + urllib.parse.urlencode(query, doseq=True)) if query else "")
        return _request(method, url, body, {"authorization": f"Bearer {token}"})

    def __enter__(self) -> "Episode":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class GymClient:
    """Talks to the gym routes of the control listener (admin token required)."""

    def __init__(self, base_url: str, admin_token: str = "", timeout: float = 60):
        self.base_url = base_url.rstrip("/")
        self.admin_token = admin_token
        self.timeout = timeout

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"authorization": f"Bearer {self.admin_token}"} if self.admin_token else {}
        status, data = _request(method, self.base_url + path, body, headers, self.timeout)
        if status >= 400:
            raise GymError(status, data)
        return data

    def tasks(self, family: Optional[str] = None) -> list:
        return self._call("GET", "/gym/tasks" + (f"?family={urllib.parse.quote(family)}" if family else ""))["tasks"]

    def reset(self, task_id: Optional[str] = None, *, task: Optional[dict] = None, seed: Optional[int] = None, tool_profile: Optional[str] = None) -> Episode:
        body: dict = {}
        if task_id:
            body["taskId"] = task_id
        if task:
            body["task"] = task
        if seed is not None:
            body["seed"] = seed
        if tool_profile:
            body["toolProfile"] = tool_profile
        return Episode(self, self._call("POST", "/gym/reset", body))
