"""OpenEnv's HTTP contract against the gym, stdlib only (no admin token: the key is in the base URL).

    wsgym serve --openenv-key $KEY
    python3 examples/python/openenv_http.py --base-url http://127.0.0.1:8081/openenv/$KEY [--task gmail-label-sender-1]

OpenEnv's own `GenericEnvClient(base_url=...)` talks to the same base URL over `<base>/ws`; this script shows the
HTTP side: POST /reset, POST /step {action, episode_id} answering {observation, reward, done}, GET /state.
"""
import argparse
import json
import urllib.error
import urllib.request


class OpenEnvHttp:
    def __init__(self, base_url):
        self.base = base_url.rstrip("/")

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"content-type": "application/json"}
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                return json.loads(res.read() or b"null")
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"{method} {path}: HTTP {e.code} {e.read().decode()[:300]}") from None

    def reset(self, **kwargs):
        return self._call("POST", "/reset", kwargs)

    def step(self, episode_id, action):
        return self._call("POST", "/step", {"action": action, "episode_id": episode_id})

    def state(self, episode_id):
        return self._call("GET", f"/state?episode_id={episode_id}")

    def close(self, episode_id):
        return self._call("POST", "/close", {"episode_id": episode_id})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--task")
    ap.add_argument("--episode-id", default="py-episode-1")
    args = ap.parse_args()
    env = OpenEnvHttp(args.base_url)
    print("health:", env._call("GET", "/health")["status"])
    first = env.reset(**({"task_id": args.task} if args.task else {}), episode_id=args.episode_id)
    obs = first["observation"]
    print("episode:", obs["episode_id"], "task:", obs["task_id"], "tools:", [t["name"] for t in obs["tools"]][:5])
    print(obs["text"].splitlines()[0])
    profile = {"method": "GET", "path": "/gmail/v1/users/me/profile"}
    r = env.step(args.episode_id, {"type": "call_tool", "tool_name": "http_request", "arguments": profile})
    body = json.loads(r["observation"]["result"]["content"][0]["text"])
    print("profile:", body["status"], body["body"].get("emailAddress"), "reward:", r["reward"], "done:", r["done"])
    r = env.step(args.episode_id, {"type": "call_tool", "tool_name": "done", "arguments": {}})
    state = json.dumps(env.state(args.episode_id), sort_keys=True)
    print("final reward:", r["reward"], "done:", r["done"], "state:", state)
    env.close(args.episode_id)


if __name__ == "__main__":
    main()
