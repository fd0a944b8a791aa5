#!/usr/bin/env python3
"""Preflight of a LoRA job host, before anything is installed (standard library only).

    python3 preflight.py --config config.json [--mode train|check|dry]

Checks, each with a clear reason when it refuses (exit 4):
  python    the interpreter is at least preflight.min_python (default 3.10)
  disk      the job directory's filesystem has preflight.min_free_gb free (default 60 for train, 1 otherwise)
  gpu       nvidia-smi lists a GPU, its driver is at least preflight.min_driver (default 550) and it reports a CUDA
            version at least preflight.min_cuda (default 12.4): what the pinned torch wheels need (train only)
  hub       the model is a local directory, or the Hugging Face hub answers for it (HF_TOKEN is sent when set, so gated
            models are checked with the caller's access); HF_HUB_OFFLINE=1 needs the model in the local cache (train only)
Prints one JSON line: {"ok": bool, "checks": {name: {"ok", "detail"}}}.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request


def version_tuple(s: str) -> tuple[int, ...]:
    out = []
    for part in s.strip().split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        if not digits:
            break
        out.append(int(digits))
    return tuple(out)


def check_python(cfg: dict) -> tuple[bool, str]:
    need = str(cfg.get("min_python", "3.10"))
    have = f"{sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}"
    ok = version_tuple(have) >= version_tuple(need)
    return ok, f"python {have}" + ("" if ok else f": the pinned libraries need python >= {need}")


def check_disk(cfg: dict, mode: str) -> tuple[bool, str]:
    need = float(cfg.get("min_free_gb", 60 if mode == "train" else 1))
    free = shutil.disk_usage(".").free / 2**30
    ok = free >= need
    return ok, f"{free:.1f} GiB free" + ("" if ok else f": needs {need:g} GiB for the model, the virtualenv and checkpoints")


def check_gpu(cfg: dict) -> tuple[bool, str]:
    exe = shutil.which("nvidia-smi")
    if not exe:
        return False, "no nvidia-smi: no NVIDIA driver on this host (a CUDA GPU is needed to train)"
    try:
        q = subprocess.run([exe, "--query-gpu=name,memory.total,driver_version", "--format=csv,noheader,nounits"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, f"nvidia-smi failed: {e}"
    rows = [r.split(", ") for r in q.stdout.strip().splitlines() if r.strip()]
    if q.returncode != 0 or not rows:
        return False, f"nvidia-smi lists no GPU ({(q.stderr or q.stdout).strip()[:200]})"
    name, mem, driver = rows[0][0], rows[0][1], rows[0][2]
    head = subprocess.run([exe], capture_output=True, text=True, timeout=60).stdout
    cuda = ""
    if "CUDA Version:" in head:
        cuda = head.split("CUDA Version:")[1].split()[0]
    need_driver = str(cfg.get("min_driver", "550"))
    need_cuda = str(cfg.get("min_cuda", "12.4"))
    detail = f"{len(rows)} GPU(s), {name} {mem} MiB, driver {driver}, CUDA {cuda or 'unknown'}"
    if version_tuple(driver) < version_tuple(need_driver):
        return False, f"{detail}: driver {driver} is older than {need_driver}, which the pinned torch needs"
    if cuda and version_tuple(cuda) < version_tuple(need_cuda):
        return False, f"{detail}: the driver supports CUDA {cuda}, the pinned torch needs {need_cuda}"
    return True, detail


def check_hub(model: str) -> tuple[bool, str]:
    if os.path.isdir(model):
        return True, f"local model directory {model}"
    if os.environ.get("HF_HUB_OFFLINE") == "1":
        cache = os.path.join(os.environ.get("HF_HOME", os.path.expanduser("~/.cache/huggingface")), "hub", "models--" + model.replace("/", "--"))
        ok = os.path.isdir(cache)
        return ok, f"HF_HUB_OFFLINE=1, cache {cache}" + ("" if ok else ": the model is not in the local cache")
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    req = urllib.request.Request(f"{endpoint}/api/models/{model}")
    if os.environ.get("HF_TOKEN"):
        req.add_header("authorization", f"Bearer {os.environ['HF_TOKEN']}")
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            info = json.loads(r.read().decode() or "{}")
        gated = info.get("gated")
        return True, f"{endpoint} has {model}" + (f" (gated: {gated}; HF_TOKEN {'set' if os.environ.get('HF_TOKEN') else 'NOT set'})" if gated else "")
    except urllib.error.HTTPError as e:
        why = {401: "needs a token (set HF_TOKEN)", 403: "access refused: accept the model's license with this token", 404: "no such model (or private)"}.get(e.code, f"HTTP {e.code}")
        return False, f"{endpoint}/api/models/{model}: {why}"
    except (urllib.error.URLError, OSError) as e:
        return False, f"cannot reach {endpoint} ({e}); set HF_ENDPOINT to a mirror, or HF_HUB_OFFLINE=1 with the model cached"


def run(cfg: dict, mode: str) -> dict:
    pf = cfg.get("preflight") or {}
    checks: dict[str, dict] = {}
    todo = [("python", lambda: check_python(pf)), ("disk", lambda: check_disk(pf, mode))]
    if mode == "train":
        todo += [("gpu", lambda: check_gpu(pf)), ("hub", lambda: check_hub(str(cfg.get("model", ""))))]
    for name, fn in todo:
        if name in set(pf.get("skip") or []):
            checks[name] = {"ok": True, "detail": "skipped (preflight.skip)"}
            continue
        ok, detail = fn()
        checks[name] = {"ok": ok, "detail": detail}
    return {"ok": all(c["ok"] for c in checks.values()), "mode": mode, "checks": checks}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description="LoRA job host preflight")
    ap.add_argument("--config", required=True)
    ap.add_argument("--mode", choices=["train", "check", "dry"], default="train")
    a = ap.parse_args(argv)
    with open(a.config, encoding="utf-8") as f:
        cfg = json.load(f)
    res = run(cfg, a.mode)
    print(json.dumps(res), flush=True)
    if not res["ok"]:
        for name, c in res["checks"].items():
            if not c["ok"]:
                print(f"preflight: refusing: {name}: {c['detail']}", file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
