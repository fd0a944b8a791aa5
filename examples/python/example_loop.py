"""Example loop over the HTTP gym, stdlib only.

A scripted "agent" lists the inbox, reads the newest messages and ends; swap `policy` for an LLM that
receives `ep.tools` (OpenAI function-calling JSON) and returns tool calls.

    python3 examples/python/example_loop.py --url http://127.0.0.1:8081 --token $WSGYM_ADMIN_TOKEN [--typed | --solve]
"""
import argparse
import json

from wsgym_client import GymClient


def policy(ep, history):
    """A trivial policy: list mail, open the first two messages, then finish."""
    typed = any(t["function"]["name"] == "gmail__users__messages__list" for t in ep.tools)
    if not history:
        return ("gmail__users__messages__list", {"maxResults": 5}) if typed else ("http_request", {"method": "GET", "path": "/gmail/v1/users/me/messages", "query": {"maxResults": 5}})
    if len(history) <= 2:
        listing = json.loads(history[0]["observation"])["body"]
        msgs = listing.get("messages", [])
        if len(msgs) >= len(history):
            mid = msgs[len(history) - 1]["id"]
            return ("gmail__users__messages__get", {"id": mid, "format": "full"}) if typed else ("http_request", {"method": "GET", "path": f"/gmail/v1/users/me/messages/{mid}"})
    return ("done", {"summary": "read the inbox"})


def solve_label_sender(ep):
    """A scripted agent for a gmail-label-sender task, through raw REST tool calls: reads the senders,
    picks the company's real domain (not the lookalike), creates the label and applies it."""
    import re
    label = re.search(r'label "([^"]+)"', ep.instruction).group(1)
    brand = label.split("/")[-1].lower()
    call = lambda method, path, **kw: json.loads(ep.step("http_request", {"method": method, "path": path, **kw})["observation"])["body"]
    # Search rather than read the whole mailbox (it holds newsletters and notifications too): mail that names the
    # company, then keep only what came from its own domain (a lookalike domain mentions the name as well).
    ids = [m["id"] for m in call("GET", "/gmail/v1/users/me/messages", query={"q": brand}).get("messages", [])]
    mine = []
    for mid in ids:
        headers = call("GET", f"/gmail/v1/users/me/messages/{mid}", query={"format": "metadata"})["payload"]["headers"]
        sender = next(h["value"] for h in headers if h["name"].lower() == "from")
        domain = sender.rsplit("@", 1)[-1].rstrip(">").lower()
        if domain == f"{brand}.test":
            mine.append(mid)
    lid = call("POST", "/gmail/v1/users/me/labels", body={"name": label})["id"]
    call("POST", "/gmail/v1/users/me/messages/batchModify", body={"ids": mine, "addLabelIds": [lid]})
    ep.step("done", {})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:8081")
    ap.add_argument("--token", default="")
    ap.add_argument("--task", default=None)
    ap.add_argument("--typed", action="store_true")
    ap.add_argument("--solve", action="store_true", help="run the scripted gmail-label-sender agent instead")
    args = ap.parse_args()

    gym = GymClient(args.url, args.token)
    if args.solve:
        ep = gym.reset(gym.tasks(family="gmail-label-sender")[0]["id"])
        try:
            solve_label_sender(ep)
            v = ep.verify()
            print("scripted label-sender agent -> reward:", v["reward"], "passed:", v["passed"])
        finally:
            ep.close()
        return
    task_id = args.task or gym.tasks(family="gmail-reply-po")[0]["id"]
    ep = gym.reset(task_id, tool_profile="typed" if args.typed else None)
    print("instruction:", ep.instruction)
    print("tools:", len(ep.tools))
    # Direct REST on the agent port works with the same token and counts as an action.
    status, profile = ep.rest("GET", "/gmail/v1/users/me/profile")
    print("profile:", status, profile.get("emailAddress") if isinstance(profile, dict) else profile)
    history = []
    try:
        while True:
            tool, arguments = policy(ep, history)
            r = ep.step(tool, arguments)
            history.append(r)
            print(f"step {r['info']['step']}: {tool} -> {r['observation'][:100]}")
            if r["terminated"] or r["truncated"]:
                break
        v = ep.verify()
        print("reward:", v["reward"], "passed:", v["passed"], "violations:", v["violations"])
    finally:
        ep.close()


if __name__ == "__main__":
    main()
